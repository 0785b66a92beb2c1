package cpu

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// layerNormBits is the FNV-1a hash of the bits of TestLayerNormRowKernels' results as
// layernorm_amd64.s computes them; the NEON kernels keep its lanes and operations, so arm64 gives
// the same bits.
const layerNormBits = 0x9b0203330f29e58

// TestLayerNormRowKernels checks the row kernels (rows of a multiple of 16) against
// layerNorm's scalar loops in float64, with and without an affine weight and bias, and that they give the
// bits of amd64's AVX-512 kernels.
func TestLayerNormRowKernels(t *testing.T) {
	if !lnRowsVector(16) {
		t.Skip("no LayerNorm row kernels on this CPU")
	}
	h := fnv.New64a()
	hash := func(vs ...[]float32) {
		for _, v := range vs {
			for _, f := range v {
				h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)))
			}
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	rnd := func(n int, scale, shift float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.NormFloat64()*scale + shift)
		}
		return v
	}
	for _, c := range []struct {
		rows, n int
		affine  bool
	}{{3, 16, true}, {5, 48, false}, {2, 768, true}, {1, 32, false}} {
		rows, n := c.rows, c.n
		x, gy := rnd(rows*n, 3, 1.5), rnd(rows*n, 1, 0)
		var w, b []float32
		if c.affine {
			w, b = rnd(n, 0.5, 1), rnd(n, 0.5, 0)
		}
		y, mean, rstd := make([]float32, rows*n), make([]float32, rows), make([]float32, rows)
		layerNormF32(y, mean, rstd, x, w, b, rows, n, 1e-5)
		wantY, wantMean, wantRstd := make([]float64, rows*n), make([]float64, rows), make([]float64, rows)
		layerNorm(wantY, wantMean, wantRstd, f64(x), f64(w), f64(b), rows, n, 1e-5)
		what := fmt.Sprintf("%d×%d affine=%v", rows, n, c.affine)
		closeTo(t, what+" y", y, wantY)
		closeTo(t, what+" mean", mean, wantMean)
		closeTo(t, what+" rstd", rstd, wantRstd)
		hash(y, mean, rstd)
		if !c.affine {
			continue // the gradient kernels take a weight
		}
		dx, dw, db := make([]float32, rows*n), make([]float32, n), make([]float32, n)
		layerNormGradRowsF32(dx, dw, db, gy, x, mean, rstd, w, 0, rows, n)
		wantDx, wantDw, wantDb := make([]float64, rows*n), make([]float64, n), make([]float64, n)
		layerNormGradRows(wantDx, wantDw, wantDb, f64(gy), f64(x), f64(mean), f64(rstd), f64(w), 0, rows, n)
		closeTo(t, what+" dx", dx, wantDx)
		closeTo(t, what+" dw", dw, wantDw)
		closeTo(t, what+" db", db, wantDb)
		hash(dx, dw, db)
	}
	if got := h.Sum64(); got != layerNormBits {
		t.Errorf("the row kernels' results hash to %#x, want %#x (amd64's)", got, uint64(layerNormBits))
	}
}

// f64 widens v (nil stays nil).
func f64(v []float32) []float64 {
	if v == nil {
		return nil
	}
	w := make([]float64, len(v))
	for i, f := range v {
		w[i] = float64(f)
	}
	return w
}
