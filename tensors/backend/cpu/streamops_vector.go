//go:build amd64 && !purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

//go:noescape
func subVVF32NT(d, a, b *float32, n int)

//go:noescape
func mulVVF32NT(d, a, b *float32, n int)

//go:noescape
func addVSF32NT(d, a *float32, s float32, n int)

//go:noescape
func mulVSF32NT(d, a *float32, s float32, n int)

// streamVV computes d[head:head+n] = x op y (Add, Sub or Mul) with non-temporal stores, from d's
// first 32-byte boundary, 32 lanes a round, and reports which part it computed (n 0 when op has
// no such kernel or d is too short); the caller computes d[:head] and d[head+n:].
func streamVV(op backend.BinaryOp, d, x, y []float32) (head, n int) {
	if !haveStreamingStores || len(d) == 0 {
		return 0, 0
	}
	head = streamHead(d)
	if n = (len(d) - head) &^ 31; n == 0 {
		return 0, 0
	}
	_, _ = x[head+n-1], y[head+n-1]
	switch op {
	case backend.Add:
		addVVF32NT(&d[head], &x[head], &y[head], n)
	case backend.Sub:
		subVVF32NT(&d[head], &x[head], &y[head], n)
	case backend.Mul:
		mulVVF32NT(&d[head], &x[head], &y[head], n)
	default:
		return 0, 0
	}
	return head, n
}

// streamVS is streamVV for d = x op s (Add or Mul).
func streamVS(op backend.BinaryOp, d, x []float32, s float32) (head, n int) {
	if !haveStreamingStores || len(d) == 0 {
		return 0, 0
	}
	head = streamHead(d)
	if n = (len(d) - head) &^ 31; n == 0 {
		return 0, 0
	}
	_ = x[head+n-1]
	switch op {
	case backend.Add:
		addVSF32NT(&d[head], &x[head], s, n)
	case backend.Mul:
		mulVSF32NT(&d[head], &x[head], s, n)
	default:
		return 0, 0
	}
	return head, n
}
