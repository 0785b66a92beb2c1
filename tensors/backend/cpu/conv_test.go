package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// convRef is a direct float64 convolution (with bias b when not nil) and its gradients, loop
// by loop.
func convRef(p backend.ConvParams, x, w, b, gy []float32) (y, gx, gw []float64) {
	y = make([]float64, p.Batch*p.Out*p.Pixels())
	gx = make([]float64, len(x))
	gw = make([]float64, len(w))
	for n := 0; n < p.Batch; n++ {
		for o := 0; o < p.Out; o++ {
			for oy := 0; oy < p.OH; oy++ {
				for ox := 0; ox < p.OW; ox++ {
					yi := ((n*p.Out+o)*p.OH+oy)*p.OW + ox
					if b != nil {
						y[yi] = float64(b[o])
					}
					for c := 0; c < p.C; c++ {
						for ki := 0; ki < p.KH; ki++ {
							for kj := 0; kj < p.KW; kj++ {
								iy, ix := oy*p.Stride-p.Pad+ki, ox*p.Stride-p.Pad+kj
								if iy < 0 || iy >= p.H || ix < 0 || ix >= p.W {
									continue
								}
								xi := ((n*p.C+c)*p.H+iy)*p.W + ix
								wi := ((o*p.C+c)*p.KH+ki)*p.KW + kj
								y[yi] += float64(w[wi]) * float64(x[xi])
								gx[xi] += float64(w[wi]) * float64(gy[yi])
								gw[wi] += float64(x[xi]) * float64(gy[yi])
							}
						}
					}
				}
			}
		}
	}
	return y, gx, gw
}

func convParams(batch, c, h, w, out, k, stride, pad int) backend.ConvParams {
	return backend.ConvParams{Batch: batch, C: c, H: h, W: w, Out: out, KH: k, KW: k, Stride: stride, Pad: pad,
		OH: (h+2*pad-k)/stride + 1, OW: (w+2*pad-k)/stride + 1}
}

// TestConv2dOnEveryCoreMatchesDirectConvolution checks the CPU's parallel convolution against
// direct loops, with the direct kernels (stride 1, where the CPU has AVX-512 or NEON) and by columns:
// one image per gemm, groups of small images with a ragged last group, filters past one
// kernel panel, padding too wide for the direct input gradient; at several core counts; and
// that the weight gradient is the same bits on any number of cores.
func TestConv2dOnEveryCoreMatchesDirectConvolution(t *testing.T) {
	cases := []struct {
		name         string
		p            backend.ConvParams
		bias, gx, gw bool
	}{
		{"one-image-per-gemm", convParams(9, 8, 24, 24, 16, 3, 1, 1), true, true, true},
		{"grouped-images-ragged", convParams(13, 8, 10, 10, 16, 3, 1, 1), true, true, true},
		{"stride2-nopad-no-bias", convParams(6, 3, 33, 33, 8, 4, 2, 0), false, true, true},
		{"stride2-padded-odd-width", convParams(5, 4, 15, 13, 8, 3, 2, 1), true, true, true},
		{"stride2-one-by-one", convParams(4, 6, 14, 14, 8, 1, 2, 0), false, true, true},
		{"stride3-padded", convParams(3, 2, 11, 10, 4, 3, 3, 1), true, true, true},
		{"weight-gradient-only", convParams(9, 8, 24, 24, 16, 3, 1, 1), true, false, true},
		{"input-gradient-only", convParams(13, 8, 10, 10, 16, 3, 1, 1), false, true, false},
		{"forty-filters-no-padding", convParams(5, 3, 9, 11, 40, 3, 1, 0), true, true, true},
		{"padding-as-wide-as-the-filter", convParams(4, 2, 6, 6, 5, 2, 1, 2), true, true, true},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			r := rand.New(rand.NewPCG(1, 2))
			fill := func(n int) []float32 {
				v := make([]float32, n)
				for i := range v {
					v[i] = float32(r.Float64()*2 - 1)
				}
				return v
			}
			x, w := fill(p.Batch*p.C*p.H*p.W), fill(p.Out*p.ColumnRows())
			gy := fill(p.Batch * p.Out * p.Pixels())
			var bias []float32
			if tc.bias {
				bias = fill(p.Out)
			}
			wantY, wantGx, wantGw := convRef(p, x, w, bias, gy)
			var firstGw []float32
			for _, run := range []struct {
				procs       int
				columnsOnly bool
			}{{1, false}, {2, false}, {3, false}, {1, true}, {2, true}} {
				procs := run.procs
				runtime.GOMAXPROCS(procs)
				c := New()
				c.columnsOnly = run.columnsOnly
				buf := func(v []float32) *backend.Buffer { return &backend.Buffer{DType: backend.F32, Len: len(v), F32: v} }
				y := buf(make([]float32, len(wantY)))
				var b *backend.Buffer
				if tc.bias {
					b = buf(bias)
				}
				c.Conv2d(backend.F32, y, buf(x), buf(w), b, p)
				var gx, gw *backend.Buffer
				if tc.gx {
					gx = buf(slices.Repeat([]float32{math.Float32frombits(0x7fc00000)}, len(x))) // NaN: must be overwritten
				}
				if tc.gw {
					gw = buf(make([]float32, len(w)))
				}
				c.Conv2dGrad(backend.F32, gx, gw, buf(gy), buf(x), buf(w), p)
				where := fmt.Sprintf("GOMAXPROCS=%d columnsOnly=%v", procs, run.columnsOnly)
				closeTo(t, where+" y", y.F32, wantY)
				if tc.gx {
					closeTo(t, where+" gx", gx.F32, wantGx)
				}
				if tc.gw {
					closeTo(t, where+" gw", gw.F32, wantGw)
					if firstGw == nil || procs == 1 {
						firstGw = slices.Clone(gw.F32)
					} else if !slices.Equal(firstGw, gw.F32) {
						t.Errorf("%s: the weight gradient's bits differ from GOMAXPROCS=1's", where)
					}
				}
			}
		})
	}
}

func closeTo(t *testing.T, what string, got []float32, want []float64) {
	t.Helper()
	for i, v := range got {
		if d := math.Abs(float64(v) - want[i]); !(d <= 1e-4*(1+math.Abs(want[i]))) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, v, want[i])
		}
	}
}
