package direct

import (
	"fmt"
	"unsafe"
)

// The planar kernels' widths (gen_planar.go): filters of one forward kernel, and of one
// weight-gradient kernel.
const (
	maxPlanarFilters     = 16
	maxPlanarGradFilters = 3
)

type (
	planarForwardKernel    func(x unsafe.Pointer, xRow, xPlane, channels int, w, bias, y *float32, yPlane, rows, rowLen int)
	planarWeightGradKernel func(x unsafe.Pointer, xRow int, gy unsafe.Pointer, gyPlane, rows, rowLen int, sums *float32)
)

// PlanarFits reports whether a Planar plan suits s: a 3×3 filter, and output rows that fill
// at least three quarters of the 16-position vectors they take (26 positions: 26 of 32).
func PlanarFits(s Shape) bool {
	if s.KH != 3 || s.KW != 3 {
		return false
	}
	ow := s.OW()
	return 4*ow >= 3*16*((ow+15)/16)
}

// Planar is a plan of a 3×3 convolution computed in NCHW, 16 positions of an output row to a
// vector: the forward kernel writes the output planes, and the weight-gradient kernel reads the
// output gradient's planes, as they are. The channels-last Direct plan transposes every
// image's result or output gradient instead, and pads filter counts and taps to its vectors,
// which costs most where an image has few channels (a network's first layer).
type Planar struct {
	s      Shape
	hp, wp int
	panels [][]float32 // forward plans: 16 filters each, [C][9][16] (the last zero-padded)
	bias   []float32   // forward plans: Out rounded up to 16 values (zeros without a bias)
}

func newPlanar(s Shape) *Planar {
	s.check()
	if s.KH != 3 || s.KW != 3 {
		panic(fmt.Sprintf("direct: a planar plan needs a 3×3 filter, not %d×%d", s.KH, s.KW))
	}
	return &Planar{s: s, hp: s.H + 2*s.PadH, wp: s.W + 2*s.PadW}
}

// NewPlanarForward plans the convolution of shape s (a 3×3 filter) with filters w
// ([Out][C][3][3]) and bias (Out values, or nil for none).
func NewPlanarForward(s Shape, w, bias []float32) *Planar {
	p := newPlanar(s)
	taps := s.Taps()
	_ = w[s.Out*taps-1]
	for f0 := 0; f0 < s.Out; f0 += maxPlanarFilters {
		panel := make([]float32, taps*maxPlanarFilters)
		for f := f0; f < min(s.Out, f0+maxPlanarFilters); f++ {
			for k, v := range w[f*taps:][:taps] {
				panel[k*maxPlanarFilters+f-f0] = v
			}
		}
		p.panels = append(p.panels, panel)
	}
	p.bias = make([]float32, (s.Out+maxPlanarFilters-1)/maxPlanarFilters*maxPlanarFilters)
	if bias != nil {
		copy(p.bias, bias[:s.Out])
	}
	return p
}

// NewPlanarInputGrad plans the input gradient of s (a 3×3 filter) as NewInputGrad does, with
// the planar kernels. It panics if !InputGradFits(s).
func NewPlanarInputGrad(s Shape, w []float32) *Planar {
	t, rot := rotated(s, w)
	return NewPlanarForward(t, rot, nil)
}

// NewPlanarWeightGrad plans the weight gradient of s (a 3×3 filter; AddWeightGrad).
func NewPlanarWeightGrad(s Shape) *Planar { return newPlanar(s) }

// ScratchLen is the length of the scratch slice Image and AddWeightGrad take: the padded
// image, then the weight-gradient kernel's sums.
func (p *Planar) ScratchLen() int { return p.s.C*p.hp*p.wp + 9*maxPlanarGradFilters }

// AccLen is the length of a weight-gradient accumulator: [Out][C][3][3], as the gradient.
func (p *Planar) AccLen() int { return p.s.Out * p.s.Taps() }

// input returns the image x ([C][H][W]) with its zero border: x itself without padding, else
// written into scratch.
func (p *Planar) input(x, scratch []float32) []float32 {
	s := p.s
	_ = x[s.C*s.H*s.W-1]
	if s.PadH == 0 && s.PadW == 0 {
		return x
	}
	padded := scratch[:s.C*p.hp*p.wp]
	padImage(padded, x, s.C, s.H, s.W, s.PadH, s.PadW, p.hp, p.wp)
	return padded
}

// Image convolves one image: y ([Out][OH][OW]) = the filters ⊛ x ([C][H][W]) + bias. scratch
// holds at least ScratchLen values.
func (p *Planar) Image(y, x, scratch []float32) {
	s := p.s
	oh, ow := s.OH(), s.OW()
	out := oh * ow
	_ = y[s.Out*out-1]
	in := p.input(x, scratch)
	for i, panel := range p.panels {
		f0 := i * maxPlanarFilters
		n := min(maxPlanarFilters, s.Out-f0)
		planarForwardKernels[n-1](unsafe.Pointer(&in[0]), 4*p.wp, 4*p.hp*p.wp, s.C, &panel[0], &p.bias[f0], &y[f0*out], 4*out, oh, ow)
	}
}

// AddWeightGrad adds one image's weight gradient, of its input x ([C][H][W]) and its output
// gradient gy ([Out][OH][OW]), to acc (AccLen values). scratch holds at least ScratchLen values.
func (p *Planar) AddWeightGrad(acc, x, gy, scratch []float32) {
	s := p.s
	oh, ow := s.OH(), s.OW()
	out, plane := oh*ow, p.hp*p.wp
	_ = gy[s.Out*out-1]
	_ = acc[p.AccLen()-1]
	in := p.input(x, scratch)
	sums := scratch[s.C*plane:][:9*maxPlanarGradFilters]
	for f0 := 0; f0 < s.Out; f0 += maxPlanarGradFilters {
		n := min(maxPlanarGradFilters, s.Out-f0)
		for c := 0; c < s.C; c++ {
			planarWeightGradKernels[n-1](unsafe.Pointer(&in[c*plane]), 4*p.wp, unsafe.Pointer(&gy[f0*out]), 4*out, oh, ow, &sums[0])
			for f := 0; f < n; f++ {
				a := acc[((f0+f)*s.C+c)*9:][:9]
				for k, v := range sums[9*f:][:9] {
					a[k] += v
				}
			}
		}
	}
}

// WeightGrad writes the sum of the accumulators accs, added in their order, into gw
// ([Out][C][3][3]).
func (p *Planar) WeightGrad(gw []float32, accs ...[]float32) {
	gw = gw[:p.AccLen()]
	copy(gw, accs[0])
	for _, a := range accs[1:] {
		for i, v := range a[:len(gw)] {
			gw[i] += v
		}
	}
}
