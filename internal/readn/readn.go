package readn

import (
	"io"
	"slices"
)

// chunk is how much is allocated before any byte arrives.
const chunk = 64 << 10

// Full reads exactly n bytes from r. When r ends first it returns
// io.ErrUnexpectedEOF (io.EOF if nothing at all was read), and what it got.
func Full(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, 0, min(n, chunk))
	for len(b) < n {
		if len(b) == cap(b) {
			b = slices.Grow(b, min(n-len(b), cap(b)))
		}
		k, err := io.ReadFull(r, b[len(b):min(cap(b), n)])
		b = b[:len(b)+k]
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return b, err
		}
	}
	return b, nil
}
