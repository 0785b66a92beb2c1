// Package syncbuf provides a bytes.Buffer that several goroutines may write
// and read at once, for tests that collect the output of worker processes
// through relay goroutines.
//
//	var out syncbuf.Buffer
//	opts.Stdout = &out // workers' output, written by one relay goroutine each
//	… out.String()
//
// Files:
//   - syncbuf.go: Buffer (Write, String, Reset).
package syncbuf
