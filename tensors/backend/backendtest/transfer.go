package backendtest

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// checkElementwise, for a device with fused elementwise programs (backend.ElementwiseOps): a
// chain of unary and binary steps over inputs at offsets gives the bits of its steps run one at
// a time with Unary and Binary (which the other groups check against the reference), and its
// sum the bits of Reduce's float32 sum of them; long enough to span many tiles.
func checkElementwise(s *suite) {
	ew, ok := s.be.(backend.ElementwiseOps)
	if !ok {
		s.t.Skipf("%s runs no fused elementwise programs", s.be.Name())
	}
	for _, n := range []int{1000, 70_001} {
		a, _ := s.rand(backend.F32, n+3, -2, 2)
		b, _ := s.rand(backend.F32, n, 0.5, 2)
		prog := &backend.Elementwise{
			Inputs: []backend.ElementwiseInput{{Buf: a, Offset: 3}, {Buf: b}},
			Steps: []backend.ElementwiseStep{
				{Unary: backend.Exp, A: -1},                         // 0: e^a
				{Binary: true, BinaryOp: backend.Mul, A: 0, B: -2},  // 1: e^a·b
				{Unary: backend.Affine, P: 0.5, Q: -1, A: 1},        // 2: 0.5·e^a·b − 1
				{Binary: true, BinaryOp: backend.Sub, A: 2, B: -1},  // 3: … − a
				{Unary: backend.GELU, A: 3},                         // 4
				{Binary: true, BinaryOp: backend.Div, A: 4, B: -2},  // 5: … / b
				{Unary: backend.Pow, P: 2, A: 5},                    // 6: (…)²
				{Binary: true, BinaryOp: backend.Max2, A: 6, B: 0},  // 7: max(…, e^a)
				{Unary: backend.Clamp, P: -1, Q: 6, A: 7},           // 8
				{Binary: true, BinaryOp: backend.Add, A: 8, B: 2},   // 9
				{Unary: backend.ReLU, A: 9},                         // 10
				{Binary: true, BinaryOp: backend.Gt, A: 10, B: -2},  // 11: … > b
				{Binary: true, BinaryOp: backend.Mul, A: 11, B: 10}, // 12
				{Unary: backend.AddScalar, P: 0.25, A: 12},          // 13
				{Binary: true, BinaryOp: backend.Sub, A: 13, B: 13}, // 14: 0 (a step read twice)
				{Binary: true, BinaryOp: backend.Add, A: 14, B: 12}, // 15
				{Unary: backend.MulScalar, P: 3, A: 15},             // 16
				{Unary: backend.Sigmoid, A: 16},                     // 17
				{Binary: true, BinaryOp: backend.Mul, A: 17, B: 0},  // 18
				{Unary: backend.Tanh, A: 18},                        // 19
				{Binary: true, BinaryOp: backend.Mul, A: 19, B: 19}, // 20
				{Unary: backend.Neg, A: 20},                         // 21
			},
		}
		// The steps one at a time, on the device.
		input := func(i int) backend.Strided {
			in := prog.Inputs[-1-i]
			return view(in.Buf, in.Offset, 1)
		}
		results := make([]*backend.Buffer, len(prog.Steps))
		operand := func(i int) backend.Strided {
			if i < 0 {
				return input(i)
			}
			return view(results[i], 0, 1)
		}
		for k, st := range prog.Steps {
			results[k] = s.be.AllocUninit(backend.F32, n)
			if st.Binary {
				s.be.Binary(st.BinaryOp, results[k], operand(st.A), operand(st.B), []int{n})
				continue
			}
			var x *backend.Buffer
			if st.A < 0 { // Unary reads a whole buffer: copy the input out of its offset
				x = s.be.AllocUninit(backend.F32, n)
				s.be.Copy(view(x, 0, 1), input(st.A), []int{n})
			} else {
				x = results[st.A]
			}
			s.be.Unary(st.Unary, results[k], x, st.P, st.Q)
		}
		last := results[len(results)-1]
		stepwise := s.get(last)
		dst := s.be.AllocUninit(backend.F32, n)
		ew.Elementwise(dst, prog, n)
		s.expect(fmt.Sprintf("Elementwise program of %d steps over %d elements, against its steps one at a time", len(prog.Steps), n), dst, stepwise, 0)
		sum := s.be.AllocUninit(backend.F32, 1)
		s.be.Reduce(backend.Sum, sum, last, 1, n, 1)
		s.expectValue(fmt.Sprintf("ElementwiseSum over %d elements rounded to float32, against Reduce", n), round(backend.F32, ew.ElementwiseSum(prog, n)), s.get(sum)[0], 0)
	}
}

// checkTransfer, for a device whose memory the host cannot address: uploads of host buffers of
// every type come back unchanged, an upload is a copy (the host buffer changed afterwards does
// not change it), and a download waits for the work queued on the buffer.
func checkTransfer(s *suite) {
	if s.tr == nil {
		s.t.Skipf("%s is a host device", s.be.Name())
	}
	for _, dt := range every {
		for _, n := range []int{0, 1, 1031} {
			v := s.uniform(n, -100, 100)
			for i := range v {
				v[i] = round(dt, v[i])
			}
			h := host(dt, v)
			d := s.tr.Upload(h)
			s.layout(fmt.Sprintf("Upload(%s[%d])", dt, n), d, dt, n)
			if n > 0 {
				h2 := host(dt, constant(n, 9))
				copy(h.F32, h2.F32)
				copy(h.F64, h2.F64)
				copy(h.I64, h2.I64)
				copy(h.U16, h2.U16)
			}
			back := s.tr.Download(d)
			*s.checks++
			if back.DType != dt || back.Len != n {
				s.t.Errorf("Download(%s[%d]) gave %s[%d]", dt, n, back.DType, back.Len)
				continue
			}
			if i, ok := agree(values(back), v, 0); !ok {
				s.t.Errorf("Upload then Download of %s[%d]: element %d is %v, want %v", dt, n, i, values(back)[i], v[i])
			}
			s.be.Fill(d, 5)
			s.expect(fmt.Sprintf("Download of %s[%d] right after a Fill", dt, n), d, constant(n, round(dt, 5)), 0)
		}
	}
}
