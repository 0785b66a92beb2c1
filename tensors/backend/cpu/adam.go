package cpu

import "math"

// adamConsts are the per-step scalars of one parameter's Adam update, in the order the assembly
// kernel reads them: β1, 1−β1, β2, 1−β2, √(1−β2ᵗ), ε, −lr/(1−β1ᵗ), and AdamW's shrink 1−lr·wd
// (1 for Adam).
type adamConsts [8]float32

// adamUpdate applies one Adam step (without an L2 term) to a chunk:
//
//	w ← w·shrink + nss·(m/(√v/bc2 + ε)), after m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g·g
//
// with vector instructions where the CPU has them. Every operation rounds to float32 in PyTorch's
// order, and no multiply-add is fused, so the vector and scalar paths give identical bits.
func adamUpdate(w, g, m, v []float32, c *adamConsts) {
	n := len(g)
	w, m, v = w[:n], m[:n], v[:n]
	done := 0
	if useVecOptim && n >= 8 {
		done = n &^ 7
		adamVec(&w[0], &g[0], &m[0], &v[0], done, c)
	}
	adamScalar(w[done:], g[done:], m[done:], v[done:], c)
}

func adamScalar(w, g, m, v []float32, c *adamConsts) {
	b1, ob1, b2, ob2, bc2, eps, nss, shrink := c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
	w, m, v = w[:len(g)], m[:len(g)], v[:len(g)]
	for j, gj := range g {
		// The explicit float32 conversions forbid the compiler to fuse multiply-adds.
		mj := float32(m[j]*b1) + float32(ob1*gj)
		vj := float32(v[j]*b2) + float32(float32(ob2*gj)*gj)
		m[j], v[j] = mj, vj
		d := float32(float32(sqrt32(vj))/bc2) + eps
		w[j] = float32(w[j]*shrink) + float32(nss*float32(mj/d))
	}
}

// sqrt32 is the correctly rounded float32 square root (the float64 root of a float32 rounds to the
// same value as VSQRTPS gives).
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }
