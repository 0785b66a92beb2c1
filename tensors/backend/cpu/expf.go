package cpu

import (
	"math"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// expf is a float32 e^x (Cephes' range reduction and degree-6 polynomial, within 2 ulp),
// several times faster than math.Exp on float64 in the softmax and cross-entropy loops.
func expf(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > 88.72283:
		return float32(math.Inf(1))
	case x < -103.972:
		return 0
	}
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
	)
	// Round x/ln2 to the nearest integer (half away from zero) without math.Floor's call.
	t := x * log2e
	if t < 0 {
		t -= 0.5
	} else {
		t += 0.5
	}
	n := float32(int32(t))
	// The explicit float32 conversions forbid the compiler to fuse the multiply-adds (it does on
	// arm64), so every platform computes the same bits.
	r := x - float32(n*ln2hi) - float32(n*ln2lo)
	p := float32(1.9875691500e-4)
	p = float32(p*r) + 1.3981999507e-3
	p = float32(p*r) + 8.3334519073e-3
	p = float32(p*r) + 4.1665795894e-2
	p = float32(p*r) + 1.6666665459e-1
	p = float32(p*r) + 5.0000001201e-1
	y := float32(float32(p*r)*r) + r + 1
	k := int32(n)
	if k < -126 || k > 127 {
		return float32(math.Ldexp(float64(y), int(k)))
	}
	return y * math.Float32frombits(uint32(k+127)<<23)
}

// softmaxRowF32 writes softmax (or log-softmax) of a contiguous row.
func softmaxRowF32(d, s []float32, log bool) {
	d = d[:len(s)]
	m := maxF32(s)
	sum := expShiftSum(d, s, m)
	if log {
		lse := m + float32(math.Log(sum))
		done := vecF32(backend.Sub, d, s, nil, lse)
		for i := done; i < len(s); i++ {
			d[i] = s[i] - lse
		}
		return
	}
	inv := float32(1 / sum)
	done := vecF32(backend.Mul, d, d, nil, inv)
	for i := done; i < len(d); i++ {
		d[i] *= inv
	}
}

// maxScalarF32 returns the largest element of a non-empty s.
func maxScalarF32(s []float32) float32 {
	m := s[0]
	for _, v := range s[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// expT is e^v computed in v's own precision: expf for float32, math.Exp for float64.
func expT[T float](v T) float64 {
	if unsafe.Sizeof(v) == 4 {
		return float64(expf(float32(v)))
	}
	return math.Exp(float64(v))
}

// expRow writes p[i] = e^(row[i]-m) and returns the sum, in T's precision.
func expRow[T float](p, row []T, m T) float64 {
	var sum float64
	for i, v := range row {
		e := expT(v - m)
		p[i] = T(e)
		sum += e
	}
	return sum
}
