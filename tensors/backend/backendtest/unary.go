package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// unaryCase is one unary op with its parameters and an input range where it is defined.
type unaryCase struct {
	op     backend.UnaryOp
	name   string
	p, q   float64
	lo, hi float64
}

var unaryCases = []unaryCase{
	{backend.Neg, "Neg", 0, 0, -3, 3},
	{backend.Exp, "Exp", 0, 0, -10, 10},
	{backend.Log, "Log", 0, 0, 1e-3, 1e3},
	{backend.Sqrt, "Sqrt", 0, 0, 0.01, 100},
	{backend.Abs, "Abs", 0, 0, -3, 3},
	{backend.Tanh, "Tanh", 0, 0, -5, 5},
	{backend.Sigmoid, "Sigmoid", 0, 0, -10, 10},
	{backend.ReLU, "ReLU", 0, 0, -3, 3},
	{backend.GELU, "GELU", 0, 0, -5, 5},
	{backend.SiLU, "SiLU", 0, 0, -10, 10},
	{backend.Pow, "Pow 2.5", 2.5, 0, 0.1, 3},
	{backend.Pow, "Pow 2", 2, 0, -3, 3},
	{backend.Pow, "Pow 3", 3, 0, -3, 3},
	{backend.Clamp, "Clamp", -0.5, 0.7, -3, 3},
	{backend.AddScalar, "AddScalar", 2.5, 0, -3, 3},
	{backend.MulScalar, "MulScalar", -1.5, 0, -3, 3},
	{backend.Affine, "Affine", 1.5, -0.5, -3, 3},
	{backend.GELUTanh, "GELUTanh", 0, 0, -5, 5},
}

// The constants of GELU: 1/√2, 1/√(2π), and of its tanh approximation √(2/π) and κ.
const (
	invSqrt2    = 0.7071067811865476
	invSqrt2Pi  = 0.3989422804014327
	sqrt2OverPi = 0.7978845608028654
	geluKappa   = 0.044715
)

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// unaryRef is op(x; p, q) in float64.
func unaryRef(op backend.UnaryOp, x, p, q float64) float64 {
	switch op {
	case backend.Neg:
		return -x
	case backend.Exp:
		return math.Exp(x)
	case backend.Log:
		return math.Log(x)
	case backend.Sqrt:
		return math.Sqrt(x)
	case backend.Abs:
		return math.Abs(x)
	case backend.Tanh:
		return math.Tanh(x)
	case backend.Sigmoid:
		return sigmoid(x)
	case backend.ReLU:
		return max(x, 0)
	case backend.GELU:
		return 0.5 * x * (1 + math.Erf(x*invSqrt2))
	case backend.SiLU:
		return x * sigmoid(x)
	case backend.Pow:
		return math.Pow(x, p)
	case backend.Clamp:
		return min(max(x, p), q)
	case backend.AddScalar:
		return x + p
	case backend.MulScalar:
		return x * p
	case backend.Affine:
		return x*p + q
	case backend.GELUTanh:
		return 0.5 * x * (1 + math.Tanh(sqrt2OverPi*(x+geluKappa*x*x*x)))
	}
	panic(fmt.Sprintf("backendtest: unary op %d has no reference", op))
}

// unaryDeriv is d op(x; p, q) / dx in float64.
func unaryDeriv(op backend.UnaryOp, x, p, q float64) float64 {
	switch op {
	case backend.Neg:
		return -1
	case backend.Exp:
		return math.Exp(x)
	case backend.Log:
		return 1 / x
	case backend.Sqrt:
		return 0.5 / math.Sqrt(x)
	case backend.Abs:
		if x < 0 {
			return -1
		}
		return 1
	case backend.Tanh:
		t := math.Tanh(x)
		return 1 - t*t
	case backend.Sigmoid:
		s := sigmoid(x)
		return s * (1 - s)
	case backend.ReLU:
		if x > 0 {
			return 1
		}
		return 0
	case backend.GELU:
		return 0.5*(1+math.Erf(x*invSqrt2)) + x*invSqrt2Pi*math.Exp(-0.5*x*x)
	case backend.SiLU:
		s := sigmoid(x)
		return s * (1 + x*(1-s))
	case backend.Pow:
		return p * math.Pow(x, p-1)
	case backend.Clamp:
		if x >= p && x <= q {
			return 1
		}
		return 0
	case backend.AddScalar:
		return 1
	case backend.MulScalar, backend.Affine:
		return p
	case backend.GELUTanh:
		t := math.Tanh(sqrt2OverPi * (x + geluKappa*x*x*x))
		return 0.5*(1+t) + 0.5*x*(1-t*t)*sqrt2OverPi*(1+3*geluKappa*x*x)
	}
	panic(fmt.Sprintf("backendtest: unary op %d has no derivative", op))
}

// tolerance is the relative error a float type's results may carry against the float64
// reference after a few roundings.
func tolerance(dt backend.DType) float64 {
	if dt == backend.F64 {
		return 1e-12
	}
	return 1e-5
}

// checkUnary: every op and its gradient in both float types, on a short buffer and (float32) on
// one long enough for a host device's parallel and streaming paths, and in place.
func checkUnary(s *suite) {
	for _, dt := range floats {
		sizes := []int{1031}
		if dt == backend.F32 {
			sizes = append(sizes, 262_147)
		}
		for _, c := range unaryCases {
			for _, n := range sizes {
				x, xv := s.rand(dt, n, c.lo, c.hi)
				y := s.be.AllocUninit(dt, n)
				s.be.Unary(c.op, y, x, c.p, c.q)
				want := make([]float64, n)
				for i, v := range xv {
					want[i] = unaryRef(c.op, v, c.p, c.q)
				}
				s.expect(fmt.Sprintf("Unary %s %s[%d]", c.name, dt, n), y, want, tolerance(dt))
				gy, gv := s.rand(dt, n, -1, 1)
				dx := s.be.AllocUninit(dt, n)
				s.be.UnaryGrad(c.op, dx, gy, x, y, c.p, c.q)
				for i, v := range xv {
					want[i] = gv[i] * unaryDeriv(c.op, v, c.p, c.q)
				}
				s.expect(fmt.Sprintf("UnaryGrad %s %s[%d]", c.name, dt, n), dx, want, 10*tolerance(dt))
			}
			// In place: the destination is the operand.
			x, xv := s.rand(dt, 1031, c.lo, c.hi)
			s.be.Unary(c.op, x, x, c.p, c.q)
			want := make([]float64, len(xv))
			for i, v := range xv {
				want[i] = unaryRef(c.op, v, c.p, c.q)
			}
			s.expect(fmt.Sprintf("Unary %s %s in place", c.name, dt), x, want, tolerance(dt))
		}
	}
}
