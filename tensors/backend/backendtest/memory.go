package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// checkMemory: Alloc zeroes, AllocUninit and Alloc give buffers of the asked type and length in
// the device's form (host slices, or none), and memory a Release handed back comes out of Alloc
// zeroed again.
func checkMemory(s *suite) {
	for _, dt := range every {
		for _, n := range []int{0, 1, 37, 1000, 70000} {
			b := s.be.Alloc(dt, n)
			s.layout(fmt.Sprintf("Alloc(%s, %d)", dt, n), b, dt, n)
			s.expect(fmt.Sprintf("Alloc(%s, %d) contents", dt, n), b, make([]float64, n), 0)
			u := s.be.AllocUninit(dt, n)
			s.layout(fmt.Sprintf("AllocUninit(%s, %d)", dt, n), u, dt, n)
			s.be.Fill(u, 3)
			s.expect(fmt.Sprintf("Fill of AllocUninit(%s, %d)", dt, n), u, constant(n, 3), 0)
			s.be.Release(u)
			again := s.be.Alloc(dt, n)
			s.expect(fmt.Sprintf("Alloc(%s, %d) after a buffer of its size was filled and released", dt, n), again, make([]float64, n), 0)
			s.be.Release(again)
			s.be.Release(b)
		}
	}
}

// layout checks a buffer's type, length and form: a host device fills exactly the slice of
// its type, another device none.
func (s *suite) layout(what string, b *backend.Buffer, dt backend.DType, n int) {
	s.t.Helper()
	*s.checks++
	if b.DType != dt || b.Len != n {
		s.t.Errorf("%s: buffer of %s[%d]", what, b.DType, b.Len)
		return
	}
	lens := map[string]int{"F32": len(b.F32), "F64": len(b.F64), "I64": len(b.I64), "U16": len(b.U16)}
	set := map[string]bool{"F32": b.F32 != nil, "F64": b.F64 != nil, "I64": b.I64 != nil, "U16": b.U16 != nil}
	own := map[backend.DType]string{backend.F32: "F32", backend.F64: "F64", backend.I64: "I64", backend.BF16: "U16", backend.F16: "U16"}[dt]
	for name := range lens {
		switch {
		case s.tr != nil && set[name]:
			s.t.Errorf("%s: a device whose memory the host cannot address exposes host slice %s", what, name)
		case s.tr == nil && name == own && lens[name] != n:
			s.t.Errorf("%s: host slice %s has %d elements, want %d", what, name, lens[name], n)
		case s.tr == nil && name != own && set[name]:
			s.t.Errorf("%s: host slice %s is set besides %s", what, name, own)
		}
	}
}

func constant(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// checkFill: every type, values that round, overflow or truncate, lengths with vector tails.
func checkFill(s *suite) {
	for _, dt := range every {
		for _, v := range []float64{0, -7, 2.5, 1e-6, 7e4, -1e40} {
			if dt == backend.I64 && math.Abs(v) > 1e18 {
				continue // no int64 holds it
			}
			for _, n := range []int{1, 300, 4099} {
				b, _ := s.poison(dt, n)
				s.be.Fill(b, v)
				s.expect(fmt.Sprintf("Fill(%s[%d], %g)", dt, n, v), b, constant(n, round(dt, v)), 0)
			}
		}
	}
}

// checkCopy: conversions between every pair of types on strided views (halves rounded to
// nearest even through float32, integers truncated), same-type copies of permuted and broadcast
// views in every element size, and a strided destination whose other elements stay untouched.
func checkCopy(s *suite) {
	for _, from := range every {
		for _, to := range every {
			v := s.uniform(40, -300, 300)
			v[3], v[5], v[9] = 1+1.0/256, 1+3.0/2048, 1e-6 // a bfloat16 tie, a float16 tie, a float16 subnormal
			v[11], v[13] = 7e4, -1e40                      // past float16, past float32
			if to == backend.I64 || from == backend.I64 {
				v[11], v[13] = 6e4, -123.75 // converting an infinity to int64 or back is undefined
			}
			for i := range v {
				v[i] = round(from, v[i])
			}
			src := s.put(from, v)
			dst, want := s.poison(to, 20)
			// A [5, 4] view at offset 2 with a row stride of 8, written transposed.
			s.be.Copy(view(dst, 0, 1, 5), view(src, 2, 8, 1), []int{5, 4})
			forEach([]int{5, 4}, func(_ int, ix []int) {
				want[ix[0]+5*ix[1]] = round(to, v[2+8*ix[0]+ix[1]])
			})
			s.expect(fmt.Sprintf("Copy %s to %s, strided", from, to), dst, want, 0)
		}
	}
	for _, dt := range every {
		// A permuted 4-D view: [3, 5, 7, 9] read as [7, 3, 9, 5].
		src, v := s.rand(dt, 3*5*7*9, -100, 100)
		dst, _ := s.poison(dt, src.Len)
		shape, strides := []int{7, 3, 9, 5}, []int{9, 315, 1, 63}
		s.be.Copy(view(dst, 0, backend.ContiguousStrides(shape...)...), view(src, 0, strides...), shape)
		want := make([]float64, src.Len)
		forEach(shape, func(pos int, ix []int) { want[pos] = v[at(0, strides, ix)] })
		s.expect(fmt.Sprintf("Copy %s of a permuted view", dt), dst, want, 0)
		// A broadcast row: [4, 300] from 300 elements at offset 5.
		row, rv := s.rand(dt, 305, -100, 100)
		wide, _ := s.poison(dt, 1200)
		s.be.Copy(view(wide, 0, 300, 1), view(row, 5, 0, 1), []int{4, 300})
		want = make([]float64, 1200)
		for i := range want {
			want[i] = rv[5+i%300]
		}
		s.expect(fmt.Sprintf("Copy %s of a broadcast row", dt), wide, want, 0)
		// A strided destination: [5, 4] at offset 3, strides 12 and 2, inside 60 elements.
		part, pv := s.rand(dt, 20, -100, 100)
		into, want := s.poison(dt, 60)
		s.be.Copy(view(into, 3, 12, 2), view(part, 0, 4, 1), []int{5, 4})
		forEach([]int{5, 4}, func(pos int, ix []int) { want[3+12*ix[0]+2*ix[1]] = pv[pos] })
		s.expect(fmt.Sprintf("Copy %s into a strided view (the rest untouched)", dt), into, want, 0)
	}
	// Large contiguous copies (the parallel and streaming paths of a host device).
	for _, to := range []backend.DType{backend.F32, backend.BF16, backend.F16} {
		n := 300_001
		src, v := s.rand(backend.F32, n, -1e3, 1e3)
		dst := s.be.AllocUninit(to, n)
		s.be.Copy(view(dst, 0, 1), view(src, 0, 1), []int{n})
		want := make([]float64, n)
		for i := range want {
			want[i] = round(to, v[i])
		}
		s.expect(fmt.Sprintf("Copy f32 to %s, %d contiguous elements", to, n), dst, want, 0)
	}
}
