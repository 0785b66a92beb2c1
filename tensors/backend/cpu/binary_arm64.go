//go:build arm64 && !purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// vecF32 runs d = x op y (y nil: d = x op s) four lanes at a time with NEON (kernels_arm64.s) and
// reports how many leading elements it handled (a multiple of 4; 0 when the op is not covered).
// It mirrors binary_amd64.go's rather than sharing one body: vecF32 runs once a row, and amd64's
// Add (streaming and AVX-512 branches) behind a per-arch function would cost it a call a row.
func vecF32(op backend.BinaryOp, d, x, y []float32, s float32) int {
	n := len(d) &^ 3
	if n == 0 {
		return 0
	}
	if y == nil {
		_ = x[n-1]
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
