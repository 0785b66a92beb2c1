//go:build amd64 && !purego

package cpu

import "github.com/goaccel/goaccel/internal/backend"

//go:noescape
func addVVF32(d, a, b *float32, n int)

//go:noescape
func addVSF32(d, a *float32, s float32, n int)

//go:noescape
func subVVF32(d, a, b *float32, n int)

//go:noescape
func subVSF32(d, a *float32, s float32, n int)

//go:noescape
func mulVVF32(d, a, b *float32, n int)

//go:noescape
func mulVSF32(d, a *float32, s float32, n int)

//go:noescape
func divVVF32(d, a, b *float32, n int)

//go:noescape
func divVSF32(d, a *float32, s float32, n int)

// vecF32 runs d = x op y (y nil: d = x op s) eight lanes at a time with AVX2 and reports how
// many leading elements it handled (a multiple of 8; 0 when the op or CPU is not covered).
func vecF32(op backend.BinaryOp, d, x, y []float32, s float32) int {
	n := len(d) &^ 7
	if !haveAVX2FMA || n == 0 {
		return 0
	}
	if y == nil {
		switch op {
		case backend.Add:
			addVSF32(&d[0], &x[0], s, n)
		case backend.Sub:
			subVSF32(&d[0], &x[0], s, n)
		case backend.Mul:
			mulVSF32(&d[0], &x[0], s, n)
		case backend.Div:
			divVSF32(&d[0], &x[0], s, n)
		default:
			return 0
		}
		return n
	}
	_, _ = x[n-1], y[n-1]
	switch op {
	case backend.Add:
		addVVF32(&d[0], &x[0], &y[0], n)
	case backend.Sub:
		subVVF32(&d[0], &x[0], &y[0], n)
	case backend.Mul:
		mulVVF32(&d[0], &x[0], &y[0], n)
	case backend.Div:
		divVVF32(&d[0], &x[0], &y[0], n)
	default:
		return 0
	}
	return n
}
