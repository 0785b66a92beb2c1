//go:build amd64 && !purego

package cpu

//go:noescape
func lnDevF32AVX512(x *float32, n int, mu float64) float64

//go:noescape
func lnApplyF32AVX512(y, x, w, b *float32, n int, mu, rs float64)

//go:noescape
func lnGradSumsF32AVX512(gy, x, w, dw, db *float32, n int, mu, rs float64) (sg, sgx float64)

//go:noescape
func lnGradDxF32AVX512(dx, gy, x, w *float32, n int, mu, rs, sg, sgx float64)

// lnRowsVector reports whether the AVX-512 row kernels below take rows of n floats (a multiple
// of 16); the scalar loops of layernorm.go do the others.
func lnRowsVector(n int) bool { return haveAVX512 && n > 0 && n%16 == 0 }

// lnDev returns Σ (x[i] − mu)² over the row x (lnRowsVector(len(x))).
func lnDev(x []float32, mu float64) float64 { return lnDevF32AVX512(&x[0], len(x), mu) }

// lnApply writes the normalised row y = (x − mu)·rs, times w and plus b where they are not nil.
func lnApply(y, x, w, b []float32, mu, rs float64) {
	n := len(x)
	_ = y[n-1]
	lnApplyF32AVX512(&y[0], &x[0], first(w, n), first(b, n), n, mu, rs)
}

// lnGradSums returns Σ gy·w and Σ gy·w·x̂ over a row and adds gy·x̂ to dw and gy to db (where
// not nil); w is not nil.
func lnGradSums(gy, x, w, dw, db []float32, mu, rs float64) (sg, sgx float64) {
	n := len(x)
	_, _ = gy[n-1], w[n-1]
	return lnGradSumsF32AVX512(&gy[0], &x[0], &w[0], first(dw, n), first(db, n), n, mu, rs)
}

// lnGradDx writes a row of the input's gradient; w is not nil.
func lnGradDx(dx, gy, x, w []float32, mu, rs, sg, sgx float64) {
	n := len(x)
	_, _, _ = dx[n-1], gy[n-1], w[n-1]
	lnGradDxF32AVX512(&dx[0], &gy[0], &x[0], &w[0], n, mu, rs, sg, sgx)
}

// first returns &s[0] after checking that s holds n elements, or nil for a nil s.
func first(s []float32, n int) *float32 {
	if s == nil {
		return nil
	}
	_ = s[n-1]
	return &s[0]
}
