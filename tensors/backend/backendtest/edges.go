package backendtest

import (
	"github.com/goaccel/goaccel/tensors/backend"
)

// checkEmpty: kernels over empty axes write what their definition says and touch nothing else
// (a device that reads a row's first element of an empty buffer, or writes past a buffer, fails
// here or, on a device that checks its memory, at the next read back).
func checkEmpty(s *suite) {
	const inner = 200
	empty := s.be.Alloc(backend.F32, 0)

	sum, _ := s.poison(backend.F32, inner)
	s.be.Reduce(backend.Sum, sum, empty, 1, 0, inner)
	s.expect("Reduce Sum over an empty axis", sum, make([]float64, inner), 0)
	for _, op := range []backend.ReduceOp{backend.Max, backend.ArgMax} {
		dt := backend.F32
		if op == backend.ArgMax {
			dt = backend.I64
		}
		dst := s.be.Alloc(dt, inner)
		s.be.Reduce(op, dst, empty, 1, 0, inner) // undefined values (package tensors refuses it), but no fault
		s.get(dst)
	}
	none := s.be.Alloc(backend.F32, 0)
	s.be.Reduce(backend.Sum, none, empty, 0, 5, inner)
	s.expect("Reduce over no rows", none, nil, 0)

	s.be.Softmax(empty, empty, 1, 0, inner, false)
	s.be.SoftmaxGrad(empty, empty, empty, 1, 0, inner, true)
	s.expect("Softmax over an empty axis", empty, nil, 0)

	s.be.Unary(backend.Exp, empty, empty, 0, 0)
	s.be.Binary(backend.Add, empty, view(empty, 0, 1, 1), view(empty, 0, 0, 1), []int{0, 5})
	s.be.Copy(view(empty, 0, 5, 1), view(empty, 0, 5, 1), []int{0, 5})
	s.expect("Unary, Binary and Copy of nothing", empty, nil, 0)

	src, _ := s.rand(backend.F32, 10, -1, 1)
	vals, idx := s.be.Alloc(backend.F32, 0), s.be.Alloc(backend.I64, 0)
	s.be.TopK(vals, idx, src, 2, 5, 1, 0, true)
	s.expect("TopK of k 0", vals, nil, 0)

	// Up to two products of [3, 2]·[2, 4] into [3, 4], with an empty batch, m or n.
	c, cv := s.rand(backend.F32, 24, -1, 1)
	a, b := s.be.Alloc(backend.F32, 12), s.be.Alloc(backend.F32, 16)
	for _, sh := range [][4]int{{0, 3, 4, 2}, {2, 0, 4, 2}, {2, 3, 0, 2}} {
		s.be.Gemm(backend.F32, false, false, sh[0], sh[1], sh[2], sh[3], 1, a, 0, 2, 6, b, 0, 4, 8, 0, c, 0, 4, 12)
	}
	s.expect("Gemm with an empty batch, m or n writes nothing", c, cv, 0)

	// Attention over no keys reads none and writes out and lse (their values are the device's:
	// package tensors refuses it).
	p := backend.AttentionParams{Batch: 1, Heads: 2, Tq: 3, Tk: 0, D: 4, Dv: 4, Scale: 0.5}
	st := func(buf *backend.Buffer, t int) backend.Strided { return view(buf, 0, 2*t*4, t*4, 4, 1) }
	q, qv := s.rand(backend.F32, 24, -1, 1)
	out, lse := s.be.Alloc(backend.F32, 24), s.be.Alloc(backend.F32, 6)
	s.be.Attention(st(out, 3), lse, st(q, 3), st(empty, 0), st(empty, 0), p)
	s.get(out)
	s.get(lse)
	s.expect("Attention over no keys leaves q alone", q, qv, 0)
}

// checkBadInputs: an index or target out of range and weights no draw can use panic with a
// message naming the value (at the call, or at the next read back on a device that finds them
// in a kernel), and the device keeps working afterwards. A strict device also refuses a
// released buffer and, when its memory is its own, a host buffer.
func checkBadInputs(s *suite) {
	i64 := func(v ...float64) *backend.Buffer { return s.put(backend.I64, v) }
	src, _ := s.rand(backend.F32, 2*4*3, -1, 1)
	sel := s.be.Alloc(backend.F32, 2*2*3)
	gat := s.be.Alloc(backend.F32, 2*2*3)
	logits, _ := s.rand(backend.F32, 3*4, -1, 1)
	loss, prob := s.be.Alloc(backend.F32, 3), s.be.Alloc(backend.F32, 3*4)
	draws := s.be.Alloc(backend.I64, 2*2)
	u, _ := s.rand(backend.F64, 2*2, 0, 1)
	cases := []struct {
		name, want string
		fn         func()
		readBack   *backend.Buffer
	}{
		{"IndexSelect with an index past the end", "index 4 out of range for dimension of size 4",
			func() { s.be.IndexSelect(sel, src, i64(1, 4), 2, 4, 3) }, sel},
		{"IndexSelect with a negative index", "index -1 out of range for dimension of size 4",
			func() { s.be.IndexSelect(sel, src, i64(-1, 0), 2, 4, 3) }, sel},
		{"IndexAdd with an index past the end", "index 7 out of range for dimension of size 4",
			func() { s.be.IndexAdd(src, sel, i64(0, 7), 2, 4, 3) }, src},
		{"Gather with an index past the end", "index 4 out of range for dimension of size 4",
			func() { s.be.Gather(gat, src, i64(0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 2), 2, 4, 2, 3) }, gat},
		{"ScatterAdd with a negative index", "index -2 out of range for dimension of size 4",
			func() { s.be.ScatterAdd(src, gat, i64(0, 1, 2, 3, 0, -2, 2, 3, 1, 0, 1, 2), 2, 4, 2, 3) }, src},
		{"CrossEntropy with a target past the classes", "target 9 at row 1 is outside [0, 4)",
			func() { s.be.CrossEntropy(loss, prob, nil, logits, i64(0, 9, -100), 3, 4, -100, 0) }, loss},
		{"CrossEntropy with a negative target that is not the ignored one", "target -3 at row 2 is outside [0, 4)",
			func() { s.be.CrossEntropy(loss, prob, nil, logits, i64(0, 1, -3), 3, 4, -100, 0) }, loss},
		{"Multinomial with a negative weight", "Multinomial",
			func() { s.be.Multinomial(draws, s.put(backend.F32, []float64{0.5, -1, 1, 1, 1, 1}), u, 2, 3, 2, true) }, draws},
		{"Multinomial from a row of zeros", "Multinomial",
			func() { s.be.Multinomial(draws, s.put(backend.F32, []float64{1, 1, 1, 0, 0, 0}), u, 2, 3, 2, true) }, draws},
		{"Multinomial of more draws without replacement than non-zero weights", "Multinomial",
			func() { s.be.Multinomial(draws, s.put(backend.F32, []float64{1, 0, 0, 1, 1, 0}), u, 2, 3, 2, false) }, draws},
	}
	for _, c := range cases {
		s.mustPanic(c.name, c.want, c.fn, c.readBack)
		ok := s.be.Alloc(backend.F32, 3)
		s.be.Fill(ok, 2)
		s.expect("the device works after "+c.name, ok, []float64{2, 2, 2}, 0)
	}
	if !s.cfg.strict {
		return
	}
	b := s.be.Alloc(backend.F32, 8)
	s.be.Release(b)
	s.mustPanic("Fill of a released buffer", "released", func() { s.be.Fill(b, 1) }, nil)
	live := s.be.Alloc(backend.F32, 8)
	s.mustPanic("Unary reading a released buffer", "released", func() { s.be.Unary(backend.Exp, live, b, 0, 0) }, nil)
	if s.tr != nil {
		h := backend.NewHost(backend.F32, 8)
		s.mustPanic("Unary reading a host buffer", "host buffer", func() { s.be.Unary(backend.Exp, live, h, 0, 0) }, nil)
	}
}
