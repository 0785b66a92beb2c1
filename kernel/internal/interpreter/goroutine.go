package interpreter

import (
	"bytes"
	"runtime"
	"strconv"
)

// GoroutineID returns the calling goroutine's id, from the header line of its
// stack ("goroutine 12 [running]:"). yaegi writes a panicking goroutine's
// interpreted frames to stderr from that goroutine; the id lets a reader of
// stderr keep them apart. Only panic reports need it.
func GoroutineID() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	field, _, _ := bytes.Cut(bytes.TrimPrefix(buf[:n], []byte("goroutine ")), []byte(" "))
	id, _ := strconv.ParseUint(string(field), 10, 64)
	return id
}
