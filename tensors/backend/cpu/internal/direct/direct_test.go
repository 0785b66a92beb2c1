package direct

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// shapes covers filter counts below, at and past one 32-wide panel, rows that split into
// tiles of every width, one-pixel outputs and borders wider than usual.
var shapes = []Shape{
	{C: 16, H: 28, W: 28, Out: 32, KH: 3, KW: 3, PadH: 1, PadW: 1},
	{C: 3, H: 7, W: 5, Out: 5, KH: 3, KW: 3, PadH: 1, PadW: 1},
	{C: 2, H: 6, W: 9, Out: 40, KH: 3, KW: 1},
	{C: 4, H: 5, W: 33, Out: 17, KH: 2, KW: 4, PadH: 1, PadW: 2},
	{C: 1, H: 1, W: 1, Out: 1, KH: 1, KW: 1},
	{C: 5, H: 10, W: 29, Out: 64, KH: 5, KW: 5, PadH: 2, PadW: 2},
	{C: 3, H: 4, W: 4, Out: 8, KH: 3, KW: 3, PadH: 2, PadW: 2},
	{C: 2, H: 3, W: 3, Out: 3, KH: 3, KW: 3},
	{C: 7, H: 3, W: 15, Out: 48, KH: 1, KW: 2, PadW: 1},
	// Winograd's too: odd output sizes (partial tiles), more than 16 tiles to a row, padding 0
	// and 2, filters past one kernel panel.
	{C: 8, H: 7, W: 35, Out: 9, KH: 3, KW: 3, PadH: 1, PadW: 1},
	{C: 9, H: 5, W: 4, Out: 8, KH: 3, KW: 3},
	{C: 8, H: 6, W: 6, Out: 20, KH: 3, KW: 3, PadH: 2, PadW: 2},
	{C: 12, H: 3, W: 3, Out: 40, KH: 3, KW: 3, PadH: 1, PadW: 1},
	// The planar kernels' too: the MNIST example's first layer (26 positions to a row: a full
	// vector and a masked one), rows of exactly one vector and of several with a tail, more
	// filters than one forward kernel takes, and fewer than one weight-gradient kernel does.
	{C: 1, H: 28, W: 28, Out: 32, KH: 3, KW: 3},
	{C: 1, H: 4, W: 18, Out: 19, KH: 3, KW: 3},
	{C: 3, H: 6, W: 38, Out: 20, KH: 3, KW: 3, PadH: 1, PadW: 1},
	{C: 2, H: 5, W: 40, Out: 2, KH: 3, KW: 3, PadH: 2, PadW: 2},
}

// forwardPlans are the plans of s's convolution to check: the direct one, and Winograd's where
// it fits.
func forwardPlans(s Shape, w, bias []float32) map[string]ImagePlan {
	plans := map[string]ImagePlan{"direct": NewForward(s, w, bias)}
	if WinogradFits(s) {
		plans["winograd"] = NewWinogradForward(s, w, bias)
	}
	if s.KH == 3 && s.KW == 3 { // every 3×3 shape, whether PlanarFits picks it or not
		plans["planar"] = NewPlanarForward(s, w, bias)
	}
	return plans
}

func randoms(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// at is x[c][y][x] of a [C][H][W] image, zero outside it.
func at(x []float32, s Shape, c, y, xx int) float64 {
	if y < 0 || y >= s.H || xx < 0 || xx >= s.W {
		return 0
	}
	return float64(x[(c*s.H+y)*s.W+xx])
}

// reference convolves directly in float64.
func reference(s Shape, x, w, bias []float32) []float64 {
	oh, ow := s.OH(), s.OW()
	y := make([]float64, s.Out*oh*ow)
	for o := 0; o < s.Out; o++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				var sum float64
				if bias != nil {
					sum = float64(bias[o])
				}
				for c := 0; c < s.C; c++ {
					for dy := 0; dy < s.KH; dy++ {
						for dx := 0; dx < s.KW; dx++ {
							sum += float64(w[((o*s.C+c)*s.KH+dy)*s.KW+dx]) * at(x, s, c, i+dy-s.PadH, j+dx-s.PadW)
						}
					}
				}
				y[(o*oh+i)*ow+j] = sum
			}
		}
	}
	return y
}

func near(t *testing.T, what string, got []float32, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if d := math.Abs(float64(got[i]) - want[i]); d > 1e-4*(1+math.Abs(want[i])) || math.IsNaN(float64(got[i])) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestImageMatchesDirectConvolution(t *testing.T) {
	if !Available() {
		t.Skip("no convolution kernels on this CPU (AVX-512 or NEON)")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range shapes {
		x, w := randoms(r, s.C*s.H*s.W), randoms(r, s.Out*s.Taps())
		for _, bias := range [][]float32{nil, randoms(r, s.Out)} {
			for kind, p := range forwardPlans(s, w, bias) {
				scratch := randoms(r, p.ScratchLen()) // stale values must not leak into results
				n := s.Out * s.OH() * s.OW()
				y := make([]float32, n+16)
				for i := n; i < len(y); i++ {
					y[i] = 7 // past the output: must stay as it is
				}
				p.Image(y[:n:n], x, scratch)
				near(t, fmt.Sprintf("%s forward of %+v", kind, s), y[:n], reference(s, x, w, bias))
				for i, v := range y[n:] {
					if v != 7 {
						t.Fatalf("%s forward of %+v wrote %v at %d past the output", kind, s, v, i)
					}
				}
			}
		}
	}
}

func TestInputGradIsTheTransposedConvolution(t *testing.T) {
	if !Available() {
		t.Skip("no convolution kernels on this CPU (AVX-512 or NEON)")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, s := range shapes {
		if !InputGradFits(s) {
			continue
		}
		oh, ow := s.OH(), s.OW()
		gy, w := randoms(r, s.Out*oh*ow), randoms(r, s.Out*s.Taps())
		// gx[c][y][x] = Σ w[o][c][dy][dx]·gy[o][y+PadH-dy][x+PadW-dx].
		want := make([]float64, s.C*s.H*s.W)
		for o := 0; o < s.Out; o++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					g := float64(gy[(o*oh+i)*ow+j])
					for c := 0; c < s.C; c++ {
						for dy := 0; dy < s.KH; dy++ {
							for dx := 0; dx < s.KW; dx++ {
								yy, xx := i+dy-s.PadH, j+dx-s.PadW
								if yy >= 0 && yy < s.H && xx >= 0 && xx < s.W {
									want[(c*s.H+yy)*s.W+xx] += g * float64(w[((o*s.C+c)*s.KH+dy)*s.KW+dx])
								}
							}
						}
					}
				}
			}
		}
		plans := map[string]ImagePlan{"direct": NewInputGrad(s, w)}
		if ts, _ := rotatedShape(s); WinogradFits(ts) {
			plans["winograd"] = NewWinogradInputGrad(s, w)
		}
		if s.KH == 3 && s.KW == 3 {
			plans["planar"] = NewPlanarInputGrad(s, w)
		}
		for kind, p := range plans {
			gx := make([]float32, len(want))
			p.Image(gx, gy, randoms(r, p.ScratchLen()))
			near(t, fmt.Sprintf("%s input gradient of %+v", kind, s), gx, want)
		}
	}
}

func TestWeightGradSumsEveryImage(t *testing.T) {
	if !Available() {
		t.Skip("no convolution kernels on this CPU (AVX-512 or NEON)")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range shapes {
		oh, ow := s.OH(), s.OW()
		const images = 3
		x, gy := randoms(r, images*s.C*s.H*s.W), randoms(r, images*s.Out*oh*ow)
		want := make([]float64, s.Out*s.Taps())
		for n := 0; n < images; n++ {
			xn := x[n*s.C*s.H*s.W:]
			for o := 0; o < s.Out; o++ {
				for i := 0; i < oh; i++ {
					for j := 0; j < ow; j++ {
						g := float64(gy[((n*s.Out+o)*oh+i)*ow+j])
						for c := 0; c < s.C; c++ {
							for dy := 0; dy < s.KH; dy++ {
								for dx := 0; dx < s.KW; dx++ {
									want[((o*s.C+c)*s.KH+dy)*s.KW+dx] += g * at(xn, s, c, i+dy-s.PadH, j+dx-s.PadW)
								}
							}
						}
					}
				}
			}
		}
		plans := map[string]WeightGradPlan{"direct": NewWeightGrad(s)}
		if WinogradFits(s) {
			plans["winograd"] = NewWinogradWeightGrad(s)
		}
		if s.KH == 3 && s.KW == 3 {
			plans["planar"] = NewPlanarWeightGrad(s)
		}
		for kind, p := range plans {
			scratch := randoms(r, p.ScratchLen())
			// Two accumulators, as two cores would fill them: images 0 and 1, then image 2.
			accs := [][]float32{make([]float32, p.AccLen()), make([]float32, p.AccLen())}
			for n := 0; n < images; n++ {
				p.AddWeightGrad(accs[n/2], x[n*s.C*s.H*s.W:][:s.C*s.H*s.W], gy[n*s.Out*oh*ow:][:s.Out*oh*ow], scratch)
			}
			gw := make([]float32, len(want))
			p.WeightGrad(gw, accs...)
			near(t, fmt.Sprintf("%s weight gradient of %+v", kind, s), gw, want)
		}
	}
}
