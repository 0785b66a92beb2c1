//go:build amd64 && !purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// addVVF32x64 is addVVF32 with AVX-512, 64 floats a step; n is a positive multiple of 64.
//
//go:noescape
func addVVF32x64(d, a, b *float32, n int)

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
		if n*4 >= streamBytes {
			return addStreaming(d, x, y)
		}
		if wide := n &^ 63; haveAVX512 && wide > 0 {
			addVVF32x64(&d[0], &x[0], &y[0], wide)
			if wide == n {
				return n
			}
			d, x, y, n = d[wide:], x[wide:], y[wide:], n-wide
			addVVF32(&d[0], &x[0], &y[0], n)
			return wide + n
		}
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

// streamBytes is the output size (per call or per core's chunk) from which elementwise adds
// store around the cache: an output this large evicts its inputs from any private cache anyway,
// and skipping the cache saves reading each destination line before writing it. Smaller
// outputs (a few MB, which the shared L3 holds for the next op) are stored normally: measured
// here, a 4 MB sum written through the cache took 126–128 µs on one core against 132–140 µs
// with non-temporal stores.
const streamBytes = 8 << 20

// addStreaming adds with non-temporal stores: a scalar head up to d's first 32-byte boundary,
// then 32 lanes a round. It reports how many leading elements it handled.
func addStreaming(d, x, y []float32) int {
	head := streamHead(d)
	for i := range head {
		d[i] = x[i] + y[i]
	}
	n := (len(d) - head) &^ 31
	if n > 0 {
		addVVF32NT(&d[head], &x[head], &y[head], n)
	}
	return head + n
}
