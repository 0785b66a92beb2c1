//go:build arm64 && !purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

//go:noescape
func addVVF32NEON(d, a, b *float32, n int)

//go:noescape
func subVVF32NEON(d, a, b *float32, n int)

//go:noescape
func mulVVF32NEON(d, a, b *float32, n int)

//go:noescape
func divVVF32NEON(d, a, b *float32, n int)

//go:noescape
func addVSF32NEON(d, a *float32, s float32, n int)

//go:noescape
func subVSF32NEON(d, a *float32, s float32, n int)

//go:noescape
func mulVSF32NEON(d, a *float32, s float32, n int)

//go:noescape
func divVSF32NEON(d, a *float32, s float32, n int)

// vecF32 runs d = x op y (y nil: d = x op s) four lanes at a time with NEON (kernels_arm64.s) and
// reports how many leading elements it handled (a multiple of 4; 0 when the op is not covered).
func vecF32(op backend.BinaryOp, d, x, y []float32, s float32) int {
	n := len(d) &^ 3
	if n == 0 {
		return 0
	}
	if y == nil {
		_ = x[n-1]
		switch op {
		case backend.Add:
			addVSF32NEON(&d[0], &x[0], s, n)
		case backend.Sub:
			subVSF32NEON(&d[0], &x[0], s, n)
		case backend.Mul:
			mulVSF32NEON(&d[0], &x[0], s, n)
		case backend.Div:
			divVSF32NEON(&d[0], &x[0], s, n)
		default:
			return 0
		}
		return n
	}
	_, _ = x[n-1], y[n-1]
	switch op {
	case backend.Add:
		addVVF32NEON(&d[0], &x[0], &y[0], n)
	case backend.Sub:
		subVVF32NEON(&d[0], &x[0], &y[0], n)
	case backend.Mul:
		mulVVF32NEON(&d[0], &x[0], &y[0], n)
	case backend.Div:
		divVVF32NEON(&d[0], &x[0], &y[0], n)
	default:
		return 0
	}
	return n
}
