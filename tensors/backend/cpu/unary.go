package cpu

import (
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

type float interface{ ~float32 | ~float64 }

// cost estimates the work of one element of op relative to an add, for the parallel threshold.
func cost(op backend.UnaryOp) int {
	switch op {
	case backend.Exp, backend.Log, backend.Tanh, backend.Sigmoid, backend.GELU, backend.GELUTanh, backend.SiLU, backend.Pow:
		return 16
	}
	return 1
}

// scalarVec reports which vector-scalar kernel computes the float32 unary op with parameter p
// exactly as unary's loop does (x op v elementwise, or x*x when square): AddScalar, MulScalar
// and Pow 2. (Neg stays a loop: x·-1 keeps a NaN's sign, which -x flips.)
func scalarVec(op backend.UnaryOp, p float64) (vop backend.BinaryOp, v float32, square, ok bool) {
	switch op {
	case backend.AddScalar:
		return backend.Add, float32(p), false, true
	case backend.MulScalar:
		return backend.Mul, float32(p), false, true
	case backend.Pow:
		return backend.Mul, 0, true, p == 2
	}
	return 0, 0, false, false
}

// Unary implements backend.Backend.
func (c *CPU) Unary(op backend.UnaryOp, dst, x *backend.Buffer, p, q float64) {
	n := x.Len
	if x.DType == backend.F64 {
		parallelFor(n, n*cost(op), func(lo, hi int) { unary(op, dst.F64[lo:hi], x.F64[lo:hi], p, q) })
		return
	}
	row, stream := unaryF32(op, p, q)
	if streams(dst, n) {
		parallelFor(n, n*cost(op), func(lo, hi int) {
			s := x.F32[lo:hi]
			if h, m := stream(dst.F32[lo:hi], s); m > 0 {
				row(dst.F32[lo:lo+h], s[:h])
				row(dst.F32[lo+h+m:hi], s[h+m:])
				return
			}
			streamF32(dst.F32[lo:hi], func(t []float32, off int) { row(t, s[off:off+len(t)]) })
		})
		return
	}
	parallelFor(n, n*cost(op), func(lo, hi int) { row(dst.F32[lo:hi], x.F32[lo:hi]) })
}

// unaryF32 returns the float32 kernels of op with parameters p and q: row computes d from s
// through the cache; stream computes d[head:head+n] with non-temporal stores where op has such a
// kernel (n 0 where it has none), as streamVV does. Unary and Elementwise both run these, so a
// fused step gives the bits of the op run alone.
func unaryF32(op backend.UnaryOp, p, q float64) (row func(d, s []float32), stream func(d, s []float32) (head, n int)) {
	row = func(d, s []float32) { unary(op, d, s, p, q) }
	stream = func(d, s []float32) (head, n int) { return 0, 0 }
	if vop, v, square, ok := scalarVec(op, p); ok {
		// The cheap ops are memory-bound only when vectorised: one scalar loop is 4× an add.
		row = func(d, s []float32) {
			var done int
			if square {
				done = vecF32(backend.Mul, d, s, s, 0)
			} else {
				done = vecF32(vop, d, s, nil, v)
			}
			unary(op, d[done:], s[done:], p, q)
		}
		stream = func(d, s []float32) (head, n int) {
			if square {
				return streamVV(backend.Mul, d, s, s)
			}
			return streamVS(vop, d, s, v)
		}
	}
	switch op {
	case backend.ReLU:
		row = reluF32
	case backend.GELU, backend.GELUTanh:
		row = func(d, s []float32) {
			done := geluF32(d, s, op == backend.GELUTanh)
			unary(op, d[done:], s[done:], p, q)
		}
	}
	return row, stream
}

// UnaryGrad implements backend.Backend.
func (c *CPU) UnaryGrad(op backend.UnaryOp, dx, gy, x, y *backend.Buffer, p, q float64) {
	n := gy.Len
	if gy.DType == backend.F64 {
		parallelFor(n, n*cost(op), func(lo, hi int) {
			unaryGrad(op, dx.F64[lo:hi], gy.F64[lo:hi], sub64(x, lo, hi), sub64(y, lo, hi), p, q)
		})
		return
	}
	if op == backend.ReLU && y != nil {
		parallelFor(n, n, func(lo, hi int) { reluGradF32(dx.F32[lo:hi], gy.F32[lo:hi], y.F32[lo:hi]) })
		return
	}
	if op == backend.GELU || op == backend.GELUTanh {
		parallelFor(n, n*cost(op), func(lo, hi int) {
			d, g, xs := dx.F32[lo:hi], gy.F32[lo:hi], x.F32[lo:hi]
			done := geluGradF32(d, g, xs, op == backend.GELUTanh)
			unaryGrad(op, d[done:], g[done:], xs[done:], nil, p, q)
		})
		return
	}
	parallelFor(n, n*cost(op), func(lo, hi int) {
		unaryGrad(op, dx.F32[lo:hi], gy.F32[lo:hi], sub32(x, lo, hi), sub32(y, lo, hi), p, q)
	})
}

func sub32(b *backend.Buffer, lo, hi int) []float32 {
	if b == nil {
		return nil
	}
	return b.F32[lo:hi]
}

func sub64(b *backend.Buffer, lo, hi int) []float64 {
	if b == nil {
		return nil
	}
	return b.F64[lo:hi]
}

func sigmoid(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

const invSqrt2 = 0.7071067811865476
const invSqrt2Pi = 0.3989422804014327

// The constants of GELU's tanh approximation: √(2/π) and κ.
const (
	sqrt2OverPi = 0.7978845608028654
	geluKappa   = 0.044715
)

func unary[T float](op backend.UnaryOp, d, x []T, p, q float64) {
	d = d[:len(x)]
	switch op {
	case backend.Neg:
		for i, v := range x {
			d[i] = -v
		}
	case backend.Exp:
		for i, v := range x {
			d[i] = T(expT(v))
		}
	case backend.Log:
		for i, v := range x {
			d[i] = T(math.Log(float64(v)))
		}
	case backend.Sqrt:
		for i, v := range x {
			d[i] = T(math.Sqrt(float64(v)))
		}
	case backend.Abs:
		for i, v := range x {
			d[i] = T(math.Abs(float64(v)))
		}
	case backend.Tanh:
		for i, v := range x {
			d[i] = T(math.Tanh(float64(v)))
		}
	case backend.Sigmoid:
		for i, v := range x {
			d[i] = T(1 / (1 + expT(-v)))
		}
	case backend.ReLU:
		for i, v := range x {
			if v > 0 {
				d[i] = v
			} else {
				d[i] = 0
			}
		}
	case backend.GELU:
		for i, v := range x {
			f := float64(v)
			d[i] = T(0.5 * f * (1 + math.Erf(f*invSqrt2)))
		}
	case backend.GELUTanh:
		for i, v := range x {
			f := float64(v)
			d[i] = T(0.5 * f * (1 + math.Tanh(sqrt2OverPi*(f+geluKappa*f*f*f))))
		}
	case backend.SiLU:
		for i, v := range x {
			d[i] = T(float64(v) / (1 + expT(-v)))
		}
	case backend.Pow:
		switch p {
		case 2:
			for i, v := range x {
				d[i] = v * v
			}
		default:
			for i, v := range x {
				d[i] = T(math.Pow(float64(v), p))
			}
		}
	case backend.Clamp:
		lo, hi := T(p), T(q)
		for i, v := range x {
			if v < lo {
				v = lo
			}
			if v > hi {
				v = hi
			}
			d[i] = v
		}
	case backend.AddScalar:
		s := T(p)
		for i, v := range x {
			d[i] = v + s
		}
	case backend.MulScalar:
		s := T(p)
		for i, v := range x {
			d[i] = v * s
		}
	case backend.Affine:
		a, b := T(p), T(q)
		for i, v := range x {
			d[i] = v*a + b
		}
	default:
		panic("cpu: unknown unary op")
	}
}

func unaryGrad[T float](op backend.UnaryOp, dx, gy, x, y []T, p, q float64) {
	dx = dx[:len(gy)]
	switch op {
	case backend.Neg:
		for i, g := range gy {
			dx[i] = -g
		}
	case backend.Exp:
		for i, g := range gy {
			dx[i] = g * y[i]
		}
	case backend.Log:
		for i, g := range gy {
			dx[i] = g / x[i]
		}
	case backend.Sqrt:
		for i, g := range gy {
			dx[i] = g / (2 * y[i])
		}
	case backend.Abs:
		for i, g := range gy {
			switch v := x[i]; {
			case v > 0:
				dx[i] = g
			case v < 0:
				dx[i] = -g
			default:
				dx[i] = 0
			}
		}
	case backend.Tanh:
		for i, g := range gy {
			dx[i] = g * (1 - y[i]*y[i])
		}
	case backend.Sigmoid:
		for i, g := range gy {
			dx[i] = g * y[i] * (1 - y[i])
		}
	case backend.ReLU:
		for i, g := range gy {
			if x[i] > 0 {
				dx[i] = g
			} else {
				dx[i] = 0
			}
		}
	case backend.GELU:
		for i, g := range gy {
			f := float64(x[i])
			cdf := 0.5 * (1 + math.Erf(f*invSqrt2))
			pdf := invSqrt2Pi * math.Exp(-0.5*f*f)
			dx[i] = g * T(cdf+f*pdf)
		}
	case backend.GELUTanh:
		for i, g := range gy {
			f := float64(x[i])
			t := math.Tanh(sqrt2OverPi * (f + geluKappa*f*f*f))
			dx[i] = g * T(0.5*(1+t)+0.5*f*(1-t*t)*sqrt2OverPi*(1+3*geluKappa*f*f))
		}
	case backend.SiLU:
		for i, g := range gy {
			f := float64(x[i])
			s := sigmoid(f)
			dx[i] = g * T(s*(1+f*(1-s)))
		}
	case backend.Pow:
		for i, g := range gy {
			dx[i] = g * T(p*math.Pow(float64(x[i]), p-1))
		}
	case backend.Clamp:
		lo, hi := T(p), T(q)
		for i, g := range gy {
			if v := x[i]; v >= lo && v <= hi {
				dx[i] = g
			} else {
				dx[i] = 0
			}
		}
	case backend.AddScalar:
		copy(dx, gy)
	case backend.MulScalar, backend.Affine:
		s := T(p)
		for i, g := range gy {
			dx[i] = g * s
		}
	default:
		panic("cpu: unknown unary op")
	}
}

// reluF32 is branch-free: a data-dependent branch on random signs mispredicts half the time.
// Negative inputs (sign bit set) become +0; NaN with the sign bit clear passes through.
func reluF32(d, x []float32) {
	done := reluVec(d, x)
	d, x = d[done:len(x)], x[done:]
	for i, v := range x {
		b := math.Float32bits(v)
		d[i] = math.Float32frombits(b &^ uint32(int32(b)>>31))
	}
}

// reluGradF32 passes gy where the ReLU output y is positive, branch-free: y is +0 or positive,
// so y's bits minus one are negative exactly when y is zero.
func reluGradF32(dx, gy, y []float32) {
	done := reluGradVec(dx, gy, y)
	dx, gy, y = dx[done:len(gy)], gy[done:], y[done:len(gy)]
	for i, g := range gy {
		m := uint32(int32(math.Float32bits(y[i])-1) >> 31)
		dx[i] = math.Float32frombits(math.Float32bits(g) &^ m)
	}
}
