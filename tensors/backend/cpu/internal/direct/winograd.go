package direct

import (
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
)

// Winograd's F(2×2, 3×3) (Lavin and Gray, 2016) computes each 2×2 output tile from a 4×4
// input tile d and a filter g as Aᵀ·[(G·g·Gᵀ) ⊙ (Bᵀ·d·B)]·A: 16 multiplies per channel and
// filter where the direct form takes 36. Transformed, the sum over channels is one gemm per
// element ξ of the 4×4 tile; the transforms around the gemms (winoInput, winoOutput and, for
// the weight gradient, winoGrad) each take 16 tiles side by side.

// WinogradFits reports whether the Winograd plans serve s: 3×3 filters, and enough channels
// and filters that the gemms outweigh the transforms.
func WinogradFits(s Shape) bool { return s.KH == 3 && s.KW == 3 && s.C >= 8 && s.Out >= 8 }

// Winograd is a plan of a 3×3 convolution computed by F(2×2, 3×3). The input transform keeps
// tiles in vector lanes ([16][C][ts]); the gemms are the direct kernels, with tiles for
// positions and the transformed channels' planes for taps; results and output gradients are
// transformed channels last and transposed to and from NCHW.
type Winograd struct {
	s      Shape
	th, tw int       // rows and columns of tiles
	bt     int       // rows of tiles in a block: the transforms and gemms go a block at a time
	ts     int       // tiles in a block's transformed input plane, with room for winoInput's 16-tile overrun
	hp, wp int       // the padded image: 2·th+2 × 2·tw+2
	outPad int       // Out rounded up to 16
	offs   []int     // byte offset of channel c's plane in a transformed input; then repeats to a multiple of 8
	panels []panel   // filter panels (only col0 and nv are used)
	chunks [2][]int  // the gemm's runs of tiles (at most maxRows each) in a full block and the last
	u      []float32 // transformed filters [16][panel][C][width] (forward plans)
	bias   []float32 // Out values rounded up to 16, or nil
}

func newWinograd(s Shape) *Winograd {
	s.check()
	if !WinogradFits(s) {
		panic("direct: Winograd plan of a convolution it does not fit")
	}
	th, tw := (s.OH()+1)/2, (s.OW()+1)/2
	// Blocks of about 48 tiles keep a core's transformed tiles and products in its L2 cache.
	bt := min(th, max(1, 48/tw))
	p := &Winograd{s: s, th: th, tw: tw, bt: bt, ts: bt*tw + 16, hp: 2*th + 2, wp: 2*tw + 2, outPad: (s.Out + 15) &^ 15}
	for c := 0; c < s.C; c++ {
		p.offs = append(p.offs, 4*c*p.ts)
	}
	p.offs = toEights(p.offs)
	p.panels = panels(p.outPad)
	p.chunks[0] = runs(bt*tw, maxRows)
	p.chunks[1] = runs((th-(th-1)/bt*bt)*tw, maxRows)
	return p
}

// NewWinogradForward plans the convolution of shape s with filters w ([Out][C][3][3]) and
// bias (Out values, or nil).
func NewWinogradForward(s Shape, w, bias []float32) *Winograd {
	p := newWinograd(s)
	if bias != nil {
		p.bias = make([]float32, p.outPad)
		copy(p.bias, bias[:s.Out])
	}
	c := s.C
	p.u = make([]float32, 16*c*p.outPad)
	_ = w[s.Out*c*9-1]
	for o := 0; o < s.Out; o++ {
		pn := p.panels[o/32]
		width, j := 16*pn.nv, o-pn.col0
		for ch := 0; ch < c; ch++ {
			g := w[(o*c+ch)*9:][:9]
			// Gg (4×3), then (Gg)Gᵀ (4×4), G = [1 0 0; ½ ½ ½; ½ -½ ½; 0 0 1].
			var gg [4][3]float32
			for k := 0; k < 3; k++ {
				g0, g1, g2 := g[k], g[3+k], g[6+k]
				gg[0][k], gg[1][k], gg[2][k], gg[3][k] = g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2
			}
			for a := 0; a < 4; a++ {
				r0, r1, r2 := gg[a][0], gg[a][1], gg[a][2]
				for b, v := range [4]float32{r0, (r0 + r1 + r2) / 2, (r0 - r1 + r2) / 2, r2} {
					p.u[(4*a+b)*c*p.outPad+c*pn.col0+ch*width+j] = v
				}
			}
		}
	}
	return p
}

// NewWinogradInputGrad plans the input gradient of s (as NewInputGrad) with F(2×2, 3×3). It
// panics unless InputGradFits(s) and WinogradFits of the transposed convolution.
func NewWinogradInputGrad(s Shape, w []float32) *Winograd {
	t, rot := rotated(s, w)
	return NewWinogradForward(t, rot, nil)
}

// NewWinogradWeightGrad plans the weight gradient of s with F(2×2, 3×3).
func NewWinogradWeightGrad(s Shape) *Winograd { return newWinograd(s) }

// ScratchLen is the length of the scratch slice Image and AddWeightGrad take: the padded
// image (and 64 values winoInput may read past it), a block's transformed image and its
// transformed results or output gradients, and the image's results or output gradient
// channels last.
func (p *Winograd) ScratchLen() int {
	return p.padLen() + 16*p.s.C*p.ts + 16*p.bt*p.tw*p.outPad + 4*p.th*p.tw*p.outPad
}

// AccLen is the length of a weight-gradient accumulator: the transformed gradient
// [16][⌈C⌉₈][⌈Out⌉₁₆].
func (p *Winograd) AccLen() int { return 16 * len(p.offs) * p.outPad }

func (p *Winograd) padLen() int { return p.s.C*p.hp*p.wp + 64 }

func (p *Winograd) split(scratch []float32) (padded, v, m, cl []float32) {
	n, nv, nm := p.padLen(), 16*p.s.C*p.ts, 16*p.bt*p.tw*p.outPad
	return scratch[:n], scratch[n : n+nv], scratch[n+nv : n+nv+nm], scratch[n+nv+nm : p.ScratchLen()]
}

// blocks calls f for each block of tile rows: its first row, its tiles and its gemm's runs.
func (p *Winograd) blocks(f func(ty0, tiles int, chunks []int)) {
	for ty0 := 0; ty0 < p.th; ty0 += p.bt {
		rows, last := min(p.bt, p.th-ty0), 0
		if ty0+p.bt >= p.th {
			last = 1
		}
		f(ty0, rows*p.tw, p.chunks[last])
	}
}

// transformInput writes the transformed tiles of the tile rows from ty0 of the padded image
// into v ([16][C][ts]).
func (p *Winograd) transformInput(v, padded []float32, ty0, tiles int) {
	s := p.s
	plane := p.hp * p.wp
	for c := 0; c < s.C; c++ {
		for ty := ty0; ty < ty0+tiles/p.tw; ty++ {
			for tx := 0; tx < p.tw; tx += 16 {
				winoInput(&v[c*p.ts+(ty-ty0)*p.tw+tx], 4*s.C*p.ts, &padded[c*plane+2*ty*p.wp+2*tx], 4*p.wp)
			}
		}
	}
}

// Image convolves one image: y ([Out][OH][OW]) = the filters ⊛ x ([C][H][W]) + bias.
func (p *Winograd) Image(y, x, scratch []float32) {
	s := p.s
	c, op := s.C, p.outPad
	padded, v, m, cl := p.split(scratch)
	padImage(padded, x, s.C, s.H, s.W, s.PadH, s.PadW, p.hp, p.wp)
	p.blocks(func(ty0, tiles int, chunks []int) {
		p.transformInput(v, padded, ty0, tiles)
		// m[ξ][t][o] = Σ_c v[ξ][c][t]·u[ξ][c][o]
		for xi := 0; xi < 16; xi++ {
			vx := v[xi*c*p.ts:]
			t0 := 0
			for _, n := range chunks {
				for _, pn := range p.panels {
					forwardKernels[pn.nv-1][n-1](c, unsafe.Pointer(&vx[t0]), &p.offs[0], unsafe.Pointer(&p.u[xi*c*op+c*pn.col0]), nil, &m[(xi*tiles+t0)*op+pn.col0], op)
				}
				t0 += n
			}
		}
		// cl: the 2·th × 2·tw outputs, channels last.
		for ty := ty0; ty < ty0+tiles/p.tw; ty++ {
			for o := 0; o < op; o += 16 {
				var bias *float32
				if p.bias != nil {
					bias = &p.bias[o]
				}
				winoOutput(&cl[2*ty*2*p.tw*op+o], 4*2*p.tw*op, 4*op, &m[(ty-ty0)*p.tw*op+o], 4*tiles*op, 4*op, p.tw, bias)
			}
		}
	})
	oh, ow := s.OH(), s.OW()
	if ow == 2*p.tw {
		gemm.Transpose(y[:s.Out*oh*ow], oh*ow, cl, op, oh*ow, s.Out)
		return
	}
	for r := 0; r < oh; r++ {
		gemm.Transpose(y[r*ow:], oh*ow, cl[r*2*p.tw*op:], op, ow, s.Out)
	}
}

// AddWeightGrad adds one image's transformed weight gradient, of its input x ([C][H][W]) and
// its output gradient gy ([Out][OH][OW]), to acc (AccLen values; WeightGrad reads it).
func (p *Winograd) AddWeightGrad(acc, x, gy, scratch []float32) {
	s := p.s
	oh, ow := s.OH(), s.OW()
	op, row := p.outPad, 2*p.tw*p.outPad
	padded, v, g, cl := p.split(scratch)
	padImage(padded, x, s.C, s.H, s.W, s.PadH, s.PadW, p.hp, p.wp)
	// cl: the output gradient channels last, zero past the image's last row and column.
	if ow == 2*p.tw {
		gemm.Transpose(cl, op, gy, oh*ow, s.Out, oh*ow)
	} else {
		for r := 0; r < oh; r++ {
			gemm.Transpose(cl[r*row:], op, gy[r*ow:], oh*ow, s.Out, ow)
			clear(cl[r*row+ow*op:][:op])
		}
	}
	clear(cl[oh*row : 2*p.th*row])
	_ = acc[p.AccLen()-1]
	cp := len(p.offs)
	p.blocks(func(ty0, tiles int, _ []int) {
		p.transformInput(v, padded, ty0, tiles)
		// g: panel by panel, [16][t][width].
		for _, pn := range p.panels {
			width := 16 * pn.nv
			gp := g[16*tiles*pn.col0:]
			for lane := 0; lane < width; lane += 16 {
				for ty := ty0; ty < ty0+tiles/p.tw; ty++ {
					winoGrad(&gp[(ty-ty0)*p.tw*width+lane], 4*tiles*width, 4*width, &cl[2*ty*row+pn.col0+lane], 4*row, 4*op, p.tw)
				}
			}
		}
		for xi := 0; xi < 16; xi++ {
			vx := unsafe.Pointer(&v[xi*s.C*p.ts])
			for _, pn := range p.panels {
				width := 16 * pn.nv
				gx := unsafe.Pointer(&g[16*tiles*pn.col0+xi*tiles*width])
				for k := 0; k < cp; k += 8 {
					weightGradKernels[pn.nv-1](&p.offs[k], vx, gx, 1, tiles, 0, &acc[(xi*cp+k)*op+pn.col0], op)
				}
			}
		}
	})
}

// WeightGrad writes the sum of the accumulators accs, added in their order, transformed back
// (Gᵀ·dU·G), into gw ([Out][C][3][3]). The sum is formed in accs[0].
func (p *Winograd) WeightGrad(gw []float32, accs ...[]float32) {
	c, cp, op := p.s.C, len(p.offs), p.outPad
	du := accs[0][:p.AccLen()]
	for _, a := range accs[1:] {
		for i, v := range a[:len(du)] {
			du[i] += v
		}
	}
	_ = gw[p.s.Out*c*9-1]
	for ch := 0; ch < c; ch++ {
		for o := 0; o < p.s.Out; o++ {
			// Gᵀ·dU (3×4), then (Gᵀ·dU)·G (3×3).
			var t [3][4]float32
			for b := 0; b < 4; b++ {
				at := func(a int) float32 { return du[((4*a+b)*cp+ch)*op+o] }
				d0, d1, d2, d3 := at(0), at(1), at(2), at(3)
				t[0][b], t[1][b], t[2][b] = d0+(d1+d2)/2, (d1-d2)/2, (d1+d2)/2+d3
			}
			g := gw[(o*c+ch)*9:][:9]
			for k := 0; k < 3; k++ {
				d0, d1, d2, d3 := t[k][0], t[k][1], t[k][2], t[k][3]
				g[3*k], g[3*k+1], g[3*k+2] = d0+(d1+d2)/2, (d1-d2)/2, (d1+d2)/2+d3
			}
		}
	}
}
