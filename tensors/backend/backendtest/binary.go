package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

var binaryNames = map[backend.BinaryOp]string{
	backend.Add: "Add", backend.Sub: "Sub", backend.Mul: "Mul", backend.Div: "Div",
	backend.Eq: "Eq", backend.Ne: "Ne", backend.Gt: "Gt", backend.Lt: "Lt", backend.Ge: "Ge",
	backend.Le: "Le", backend.Max2: "Max2",
}

func b2f(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// binaryRef is a op b as dt computes it: float64, rounded to dt (every float op of two float32
// values rounded from float64 is the correctly rounded float32 op), integer division truncated.
func binaryRef(op backend.BinaryOp, dt backend.DType, a, b float64) float64 {
	var v float64
	switch op {
	case backend.Add:
		v = a + b
	case backend.Sub:
		v = a - b
	case backend.Mul:
		v = a * b
	case backend.Div:
		if dt == backend.I64 {
			return float64(int64(a) / int64(b))
		}
		v = a / b
	case backend.Eq:
		v = b2f(a == b)
	case backend.Ne:
		v = b2f(a != b)
	case backend.Gt:
		v = b2f(a > b)
	case backend.Lt:
		v = b2f(a < b)
	case backend.Ge:
		v = b2f(a >= b)
	case backend.Le:
		v = b2f(a <= b)
	case backend.Max2:
		v = math.Max(a, b)
	default:
		panic(fmt.Sprintf("backendtest: binary op %d has no reference", op))
	}
	return round(dt, v)
}

// operands returns values for a binary op's operands of dt: halves and whole numbers (so the
// comparisons see ties) for a, and the same but never zero for b (a divisor).
func (s *suite) operands(dt backend.DType, n int) (a, b []float64) {
	a, b = s.ints(n, -12, 12), s.ints(n, 1, 12)
	for i := range a {
		if dt != backend.I64 {
			a[i] /= 2
			b[i] /= 2
		}
		if s.r.IntN(2) == 0 {
			b[i] = -b[i]
		}
	}
	return a, b
}

// binaryLayout is one way of broadcasting two operands to a shape: the buffers' lengths and the
// views' offsets and strides.
type binaryLayout struct {
	name         string
	shape        []int
	na, nb       int
	offA, offB   int
	stA, stB     []int
	inPlaceOfDst bool // the destination is a's buffer (a contiguous)
}

var binaryLayouts = []binaryLayout{
	{name: "contiguous", shape: []int{1031}, na: 1031, nb: 1031, stA: []int{1}, stB: []int{1}},
	{name: "scalar b", shape: []int{1031}, na: 1031, nb: 5, offB: 3, stA: []int{1}, stB: []int{0}},
	{name: "scalar a", shape: []int{1031}, na: 2, nb: 1031, offA: 1, stA: []int{0}, stB: []int{1}},
	{name: "broadcast rows", shape: []int{6, 4}, na: 24, nb: 6, offB: 2, stA: []int{4, 1}, stB: []int{0, 1}},
	{name: "transposed a, broadcast b", shape: []int{3, 4, 5}, na: 60, nb: 15, stA: []int{1, 3, 12}, stB: []int{5, 0, 1}},
	{name: "in place", shape: []int{1031}, na: 1031, nb: 1031, stA: []int{1}, stB: []int{1}, inPlaceOfDst: true},
}

// checkBinary: every op in float32, float64 and int64 on contiguous, broadcast, transposed and
// in-place operands, exactly; large float32 arithmetic for a host device's streaming paths.
func checkBinary(s *suite) {
	for _, dt := range numeric {
		for op := backend.Add; op <= backend.Max2; op++ {
			for _, l := range binaryLayouts {
				av, _ := s.operands(dt, l.na)
				_, bv := s.operands(dt, l.nb)
				a, b := s.put(dt, av), s.put(dt, bv)
				n := 1
				for _, d := range l.shape {
					n *= d
				}
				dst := a
				if !l.inPlaceOfDst {
					dst, _ = s.poison(dt, n)
				}
				s.be.Binary(op, dst, view(a, l.offA, l.stA...), view(b, l.offB, l.stB...), l.shape)
				want := make([]float64, n)
				forEach(l.shape, func(pos int, ix []int) {
					want[pos] = binaryRef(op, dt, av[at(l.offA, l.stA, ix)], bv[at(l.offB, l.stB, ix)])
				})
				s.expect(fmt.Sprintf("Binary %s %s, %s", binaryNames[op], dt, l.name), dst, want, 0)
			}
		}
	}
	n := 262_147
	for _, op := range []backend.BinaryOp{backend.Add, backend.Sub, backend.Mul, backend.Div} {
		a, av := s.rand(backend.F32, n, -10, 10)
		b, bv := s.rand(backend.F32, n, 1, 10)
		for _, scalar := range []bool{false, true} {
			stB := 1
			if scalar {
				stB = 0
			}
			dst := s.be.AllocUninit(backend.F32, n)
			s.be.Binary(op, dst, view(a, 0, 1), view(b, 0, stB), []int{n})
			want := make([]float64, n)
			for i := range want {
				want[i] = binaryRef(op, backend.F32, av[i], bv[i*stB])
			}
			s.expect(fmt.Sprintf("Binary %s f32[%d], scalar b %v", binaryNames[op], n, scalar), dst, want, 0)
		}
	}
}

// checkWhere: conditions of three types (any non-zero value selects a), operands of every type
// Where takes, broadcast and transposed.
func checkWhere(s *suite) {
	for _, ct := range []backend.DType{backend.F32, backend.I64, backend.BF16} {
		cv := []float64{0, 1, -2, 0, 0.5, 3}
		if ct == backend.I64 {
			cv[4] = 7
		}
		cond := s.put(ct, cv)
		for _, dt := range numeric {
			av, bv := s.operands(dt, 24)
			a, b := s.put(dt, av), s.put(dt, bv)
			dst, _ := s.poison(dt, 24)
			// cond [6, 1] broadcast along rows, a transposed from [4, 6], b one element.
			shape, stC, stA, stB := []int{6, 4}, []int{1, 0}, []int{1, 6}, []int{0, 0}
			s.be.Where(dst, view(cond, 0, stC...), view(a, 0, stA...), view(b, 5, stB...), shape)
			want := make([]float64, 24)
			forEach(shape, func(pos int, ix []int) {
				if cv[at(0, stC, ix)] != 0 {
					want[pos] = av[at(0, stA, ix)]
				} else {
					want[pos] = bv[5]
				}
			})
			s.expect(fmt.Sprintf("Where %s condition, %s operands", ct, dt), dst, want, 0)
		}
	}
}

var reduceNames = map[backend.ReduceOp]string{
	backend.Sum: "Sum", backend.Max: "Max", backend.Min: "Min", backend.ArgMax: "ArgMax", backend.ArgMin: "ArgMin",
}

// reduceRef reduces the middle axis of v viewed as [outer, n, inner]: sums in float64, extremes
// and arg-extremes of the first extreme, NaN counting as the extreme.
func reduceRef(op backend.ReduceOp, v []float64, outer, n, inner int) []float64 {
	out := make([]float64, outer*inner)
	for o := range outer {
		for i := range inner {
			best, bi, sum := v[o*n*inner+i], 0, 0.0
			for j := range n {
				x := v[(o*n+j)*inner+i]
				sum += x
				if math.IsNaN(best) {
					continue
				}
				if math.IsNaN(x) || (op == backend.Max || op == backend.ArgMax) && x > best || (op == backend.Min || op == backend.ArgMin) && x < best {
					best, bi = x, j
				}
			}
			switch op {
			case backend.Sum:
				out[o*inner+i] = sum
			case backend.Max, backend.Min:
				out[o*inner+i] = best
			default:
				out[o*inner+i] = float64(bi)
			}
		}
	}
	return out
}

// checkReduce: every reduction in float32, float64 and int64 over inner axes of 1 and more,
// ties (the first extreme wins), long rows, and NaN (it is the extreme).
func checkReduce(s *suite) {
	shapes := [][3]int{{3, 300, 2}, {5, 1031, 1}, {1, 7, 33}, {2, 1, 5}, {2, 40000, 1}}
	for _, dt := range numeric {
		for _, sh := range shapes {
			outer, n, inner := sh[0], sh[1], sh[2]
			inputs := map[string][]float64{"whole numbers": s.ints(outer*n*inner, -9, 10)}
			if dt != backend.I64 {
				inputs["reals"] = s.uniform(outer*n*inner, -5, 5)
				nan := s.uniform(outer*n*inner, -5, 5)
				for k := 0; k < len(nan); k += 7 + len(nan)/5 {
					nan[k] = math.NaN()
				}
				inputs["with NaN"] = nan
			}
			for what, v := range inputs {
				for i := range v {
					v[i] = round(dt, v[i])
				}
				src := s.put(dt, v)
				for op := backend.Sum; op <= backend.ArgMin; op++ {
					odt := dt
					if op == backend.ArgMax || op == backend.ArgMin {
						odt = backend.I64
					}
					dst, _ := s.poison(odt, outer*inner)
					s.be.Reduce(op, dst, src, outer, n, inner)
					rtol := 0.0
					if op == backend.Sum && what != "whole numbers" {
						rtol = tolerance(dt)
					}
					s.expect(fmt.Sprintf("Reduce %s %s [%d %d %d] of %s", reduceNames[op], dt, outer, n, inner, what), dst, reduceRef(op, v, outer, n, inner), rtol)
				}
			}
		}
	}
}
