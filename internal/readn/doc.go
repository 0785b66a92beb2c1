// Package readn reads a body whose length came from the other side of a
// pipe, socket or file: it allocates the body as its bytes arrive, doubling
// from 64 KiB, never all at once on the word of a header, so a length alone
// reserves no memory.
//
//	body, err := readn.Full(conn, int(size)) // size from the frame header
//
// Files:
//   - readn.go: Full.
package readn
