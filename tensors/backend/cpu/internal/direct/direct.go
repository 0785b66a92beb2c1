package direct

import (
	"fmt"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
)

// maxRows is the most output positions one forward kernel computes (see gen_kernels.go).
const maxRows = 14

type (
	forwardKernel    func(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bias *float32, c *float32, ldc int)
	weightGradKernel func(offs *int, x, grad unsafe.Pointer, rows, rowLen, xRowStride int, c *float32, ldc int)
)

// Available reports whether this CPU runs the kernels: AVX-512 on amd64, every arm64 CPU.
func Available() bool { return available }

// Shape is a stride-1 convolution's shape: C input channels of H×W images, Out filters of
// C×KH×KW taps, PadH rows and PadW columns of zeros on each side of an image.
type Shape struct{ C, H, W, Out, KH, KW, PadH, PadW int }

// OH is the height of an output image.
func (s Shape) OH() int { return s.H + 2*s.PadH - s.KH + 1 }

// OW is the width of an output image.
func (s Shape) OW() int { return s.W + 2*s.PadW - s.KW + 1 }

// Taps is C·KH·KW, the length of a filter.
func (s Shape) Taps() int { return s.C * s.KH * s.KW }

func (s Shape) check() {
	if s.C < 1 || s.H < 1 || s.W < 1 || s.Out < 1 || s.KH < 1 || s.KW < 1 || s.PadH < 0 || s.PadW < 0 || s.OH() < 1 || s.OW() < 1 {
		panic(fmt.Sprintf("direct: invalid convolution shape %+v", s))
	}
}

// Direct is a plan of a convolution computed by the direct kernels: its shape with its filters
// laid out for them.
type Direct struct {
	s      Shape
	hp, wp int   // the padded image
	outPad int   // Out rounded up to 16: a row of the channels-last results
	offs   []int // byte offset of tap (c·KH+dy)·KW+dx in the padded image; then repeats to a multiple of 8
	panels []panel
	tiles  []int // widths of the position tiles that cover an output row
}

// panel is 16 or 32 consecutive filters (the last ones zero-padded), laid out tap-major.
type panel struct {
	col0, nv int
	w        []float32 // [taps][16·nv], forward plans only
	bias     []float32 // [16·nv] or nil
}

func newDirect(s Shape) *Direct {
	s.check()
	p := &Direct{s: s, hp: s.H + 2*s.PadH, wp: s.W + 2*s.PadW, outPad: (s.Out + 15) &^ 15}
	for c := 0; c < s.C; c++ {
		for dy := 0; dy < s.KH; dy++ {
			for dx := 0; dx < s.KW; dx++ {
				p.offs = append(p.offs, 4*((c*p.hp+dy)*p.wp+dx))
			}
		}
	}
	p.offs = toEights(p.offs)
	p.panels = panels(p.outPad)
	p.tiles = runs(s.OW(), maxRows)
	return p
}

// NewForward plans the convolution of shape s with filters w ([Out][C][KH][KW]) and bias
// (Out values, or nil for none).
func NewForward(s Shape, w, bias []float32) *Direct {
	p := newDirect(s)
	taps := s.Taps()
	_ = w[s.Out*taps-1]
	for i := range p.panels {
		pn := &p.panels[i]
		width := 16 * pn.nv
		pn.w = make([]float32, taps*width)
		for j := 0; j < width && pn.col0+j < s.Out; j++ {
			filter := w[(pn.col0+j)*taps:][:taps]
			for k, v := range filter {
				pn.w[k*width+j] = v
			}
		}
		if bias != nil {
			pn.bias = make([]float32, width)
			copy(pn.bias, bias[pn.col0:min(s.Out, pn.col0+width)])
		}
	}
	return p
}

// InputGradFits reports whether NewInputGrad can plan s: the input gradient is a convolution
// of the output gradient padded by KH-1-PadH rows and KW-1-PadW columns, which must not be
// negative.
func InputGradFits(s Shape) bool { return s.PadH < s.KH && s.PadW < s.KW }

// NewInputGrad plans the convolution whose Image turns an output gradient of s into the
// input gradient: the output gradient convolved with the filters w ([Out][C][KH][KW]) rotated
// by 180° and with their channels and filters swapped. It panics if !InputGradFits(s).
func NewInputGrad(s Shape, w []float32) *Direct {
	t, rot := rotated(s, w)
	return NewForward(t, rot, nil)
}

// rotatedShape returns the shape of the convolution that turns an output gradient of s into
// its input gradient, and whether there is one (InputGradFits).
func rotatedShape(s Shape) (Shape, bool) {
	s.check()
	return Shape{C: s.Out, H: s.OH(), W: s.OW(), Out: s.C, KH: s.KH, KW: s.KW, PadH: s.KH - 1 - s.PadH, PadW: s.KW - 1 - s.PadW}, InputGradFits(s)
}

// rotated returns the shape of the convolution that turns an output gradient of s into its
// input gradient, and its filters: w ([Out][C][KH][KW]) rotated by 180° with channels and
// filters swapped. It panics if !InputGradFits(s).
func rotated(s Shape, w []float32) (Shape, []float32) {
	t, ok := rotatedShape(s)
	if !ok {
		panic(fmt.Sprintf("direct: padding of %+v is too wide for the input gradient's plan", s))
	}
	kk := s.KH * s.KW
	rot := make([]float32, len(w[:s.Out*s.Taps()]))
	for o := 0; o < s.Out; o++ {
		for c := 0; c < s.C; c++ {
			src := w[(o*s.C+c)*kk:][:kk]
			dst := rot[(c*s.Out+o)*kk:][:kk]
			for i, v := range src {
				dst[kk-1-i] = v
			}
		}
	}
	return t, rot
}

// NewWeightGrad plans the weight gradient of the convolution of shape s (AddWeightGrad).
func NewWeightGrad(s Shape) *Direct { return newDirect(s) }

// ScratchLen is the length of the scratch slice Image and AddWeightGrad take: the padded
// image, then the channels-last results (or output gradient).
func (p *Direct) ScratchLen() int { return p.s.C*p.hp*p.wp + p.s.OH()*p.s.OW()*p.outPad }

// AccLen is the length of a weight-gradient accumulator (AddWeightGrad).
func (p *Direct) AccLen() int { return len(p.offs) * p.outPad }

func (p *Direct) split(scratch []float32) (padded, cols []float32) {
	n := p.s.C * p.hp * p.wp
	return scratch[:n], scratch[n:p.ScratchLen()]
}

// pad writes the image x ([C][H][W]) into dst with its zero border.
func (p *Direct) pad(dst, x []float32) {
	padImage(dst, x, p.s.C, p.s.H, p.s.W, p.s.PadH, p.s.PadW, p.hp, p.wp)
}

// Image convolves one image: y ([Out][OH][OW]) = the filters ⊛ x ([C][H][W]) + bias. scratch
// holds at least ScratchLen values.
func (p *Direct) Image(y, x, scratch []float32) {
	s := p.s
	oh, ow := s.OH(), s.OW()
	padded, cols := p.split(scratch)
	p.pad(padded, x)
	taps := s.Taps()
	for r := 0; r < oh; r++ {
		x0 := 0
		for _, t := range p.tiles {
			base := unsafe.Pointer(&padded[r*p.wp+x0])
			for _, pn := range p.panels {
				var bias *float32
				if pn.bias != nil {
					bias = &pn.bias[0]
				}
				forwardKernels[pn.nv-1][t-1](taps, base, &p.offs[0], unsafe.Pointer(&pn.w[0]), bias, &cols[(r*ow+x0)*p.outPad+pn.col0], p.outPad)
			}
			x0 += t
		}
	}
	gemm.Transpose(y[:s.Out*oh*ow], oh*ow, cols, p.outPad, oh*ow, s.Out)
}

// AddWeightGrad adds one image's weight gradient, of its input x ([C][H][W]) and its output
// gradient gy ([Out][OH][OW]), to acc (AccLen values, tap-major: acc[k·⌈Out⌉₁₆ + o]; WeightGrad
// reads it). scratch holds at least ScratchLen values.
func (p *Direct) AddWeightGrad(acc, x, gy, scratch []float32) {
	s := p.s
	oh, ow := s.OH(), s.OW()
	pos := oh * ow
	padded, cols := p.split(scratch)
	p.pad(padded, x)
	_ = acc[p.AccLen()-1]
	for _, pn := range p.panels {
		width := 16 * pn.nv
		g := cols[pos*pn.col0:][:pos*width]
		// Columns past Out stay as they were: they only reach acc's padding columns.
		gemm.Transpose(g, width, gy[pn.col0*pos:], pos, min(width, s.Out-pn.col0), pos)
		// Blocks of rows whose gradient stays in the L1 cache while every tap passes over it.
		block := max(1, (16<<10)/(4*ow*width))
		for r0 := 0; r0 < oh; r0 += block {
			rows := min(block, oh-r0)
			x, gr := unsafe.Pointer(&padded[r0*p.wp]), unsafe.Pointer(&g[r0*ow*width])
			for k := 0; k < len(p.offs); k += 8 {
				weightGradKernels[pn.nv-1](&p.offs[k], x, gr, rows, ow, 4*p.wp, &acc[k*p.outPad+pn.col0], p.outPad)
			}
		}
	}
}

// WeightGrad writes the sum of the accumulators accs, added in their order, into gw
// ([Out][C][KH][KW]).
func (p *Direct) WeightGrad(gw []float32, accs ...[]float32) {
	taps := p.s.Taps()
	for o := 0; o < p.s.Out; o++ {
		row := gw[o*taps:][:taps]
		for k := range row {
			v := accs[0][k*p.outPad+o]
			for _, a := range accs[1:] {
				v += a[k*p.outPad+o]
			}
			row[k] = v
		}
	}
}

// ImagePlan is a planned convolution of one image at a time (Direct, Winograd).
type ImagePlan interface {
	// Image convolves one image into y; scratch holds at least ScratchLen values.
	Image(y, x, scratch []float32)
	ScratchLen() int
}

// WeightGradPlan is a planned weight gradient (Direct, Winograd).
type WeightGradPlan interface {
	// AddWeightGrad adds one image's weight gradient to an accumulator of AccLen values.
	AddWeightGrad(acc, x, gy, scratch []float32)
	// WeightGrad writes the sum of accumulators, in their order, as [Out][C][KH][KW]; it may
	// form the sum in the first accumulator.
	WeightGrad(gw []float32, accs ...[]float32)
	AccLen() int
	ScratchLen() int
}

// Forward plans the convolution of shape s with Winograd's F(2×2, 3×3) where it fits, else
// with the planar kernels where they fit, else with the direct kernels.
func Forward(s Shape, w, bias []float32) ImagePlan {
	switch {
	case WinogradFits(s):
		return NewWinogradForward(s, w, bias)
	case PlanarFits(s):
		return NewPlanarForward(s, w, bias)
	}
	return NewForward(s, w, bias)
}

// InputGrad plans the input gradient of s (see NewInputGrad) as Forward plans a convolution.
func InputGrad(s Shape, w []float32) ImagePlan {
	t, _ := rotatedShape(s)
	switch {
	case WinogradFits(t):
		return NewWinogradInputGrad(s, w)
	case PlanarFits(t):
		return NewPlanarInputGrad(s, w)
	}
	return NewInputGrad(s, w)
}

// WeightGrad plans the weight gradient of s as Forward plans the convolution.
func WeightGrad(s Shape) WeightGradPlan {
	switch {
	case WinogradFits(s):
		return NewWinogradWeightGrad(s)
	case PlanarFits(s):
		return NewPlanarWeightGrad(s)
	}
	return NewWeightGrad(s)
}
