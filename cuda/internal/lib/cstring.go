package lib

import "unsafe"

// CString copies the NUL-terminated C string at p (at most max bytes) into a
// Go string; nil is "".
func CString(p *byte, max int) string {
	var b []byte
	for i := 0; p != nil && i < max; i++ {
		c := *(*byte)(unsafe.Add(unsafe.Pointer(p), i))
		if c == 0 {
			break
		}
		b = append(b, c)
	}
	return string(b)
}
