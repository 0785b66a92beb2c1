package backendtest

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// unfoldCase is one image's unfolding.
type unfoldCase struct{ c, h, w, kh, kw, stride, pad int }

func (u unfoldCase) out() (oh, ow int) {
	return (u.h+2*u.pad-u.kh)/u.stride + 1, (u.w+2*u.pad-u.kw)/u.stride + 1
}

// checkIm2col: unfolding into a block of a wider column buffer (other columns untouched) and
// folding back, accumulating, into an image inside a larger buffer, for square and oblong
// kernels, strides 1 and 2, and padding wider than the kernel reaches.
func checkIm2col(s *suite) {
	for _, dt := range floats {
		for _, u := range []unfoldCase{{2, 7, 6, 3, 3, 1, 1}, {3, 7, 6, 3, 3, 2, 1}, {2, 7, 6, 2, 3, 2, 0}, {2, 7, 6, 3, 2, 2, 2}, {1, 5, 5, 1, 1, 1, 0}} {
			oh, ow := u.out()
			what := fmt.Sprintf("%s %d×%d×%d, kernel %d×%d, stride %d, pad %d", dt, u.c, u.h, u.w, u.kh, u.kw, u.stride, u.pad)
			const xOff, colOff = 4, 3
			ld := oh*ow + 5 // another image's columns beside
			rowsCol := u.c * u.kh * u.kw
			x, xv := s.rand(dt, xOff+u.c*u.h*u.w+2, -2, 2)
			col, want := s.poison(dt, colOff+rowsCol*ld)
			pixel := func(c, iy, ix int) (int, bool) {
				if iy < 0 || iy >= u.h || ix < 0 || ix >= u.w {
					return 0, false
				}
				return xOff + (c*u.h+iy)*u.w + ix, true
			}
			each := func(fn func(colAt, c, iy, ix int)) {
				for c := range u.c {
					for ki := range u.kh {
						for kj := range u.kw {
							for oy := range oh {
								for ox := range ow {
									fn(colOff+((c*u.kh+ki)*u.kw+kj)*ld+oy*ow+ox, c, oy*u.stride-u.pad+ki, ox*u.stride-u.pad+kj)
								}
							}
						}
					}
				}
			}
			each(func(k, c, iy, ix int) {
				want[k] = 0
				if p, ok := pixel(c, iy, ix); ok {
					want[k] = xv[p]
				}
			})
			s.be.Im2col(col, colOff, ld, x, xOff, u.c, u.h, u.w, u.kh, u.kw, u.stride, u.pad, oh, ow)
			s.expect("Im2col "+what, col, want, 0)

			cols, cv := s.rand(dt, colOff+rowsCol*ld, -1, 1)
			dx, dv := s.rand(dt, x.Len, -1, 1) // accumulated into; elements outside the image untouched
			s.be.Col2im(dx, xOff, cols, colOff, ld, u.c, u.h, u.w, u.kh, u.kw, u.stride, u.pad, oh, ow)
			each(func(k, c, iy, ix int) {
				if p, ok := pixel(c, iy, ix); ok {
					dv[p] += cv[k]
				}
			})
			s.expect("Col2im "+what, dx, dv, tolerance(dt))
		}
	}
}

// convRef is the convolution in float64 (b may be nil).
func convRef(p backend.ConvParams, x, w, b []float64) []float64 {
	y := make([]float64, p.Batch*p.Out*p.OH*p.OW)
	for n := range p.Batch {
		for o := range p.Out {
			for oy := range p.OH {
				for ox := range p.OW {
					sum := 0.0
					if b != nil {
						sum = b[o]
					}
					for c := range p.C {
						for ki := range p.KH {
							for kj := range p.KW {
								iy, ix := oy*p.Stride-p.Pad+ki, ox*p.Stride-p.Pad+kj
								if iy < 0 || iy >= p.H || ix < 0 || ix >= p.W {
									continue
								}
								sum += x[((n*p.C+c)*p.H+iy)*p.W+ix] * w[((o*p.C+c)*p.KH+ki)*p.KW+kj]
							}
						}
					}
					y[((n*p.Out+o)*p.OH+oy)*p.OW+ox] = sum
				}
			}
		}
	}
	return y
}

// convGradRef is the convolution's input and weight gradients in float64.
func convGradRef(p backend.ConvParams, gy, x, w []float64) (gx, gw []float64) {
	gx, gw = make([]float64, len(x)), make([]float64, len(w))
	for n := range p.Batch {
		for o := range p.Out {
			for oy := range p.OH {
				for ox := range p.OW {
					g := gy[((n*p.Out+o)*p.OH+oy)*p.OW+ox]
					for c := range p.C {
						for ki := range p.KH {
							for kj := range p.KW {
								iy, ix := oy*p.Stride-p.Pad+ki, ox*p.Stride-p.Pad+kj
								if iy < 0 || iy >= p.H || ix < 0 || ix >= p.W {
									continue
								}
								xi, wi := ((n*p.C+c)*p.H+iy)*p.W+ix, ((o*p.C+c)*p.KH+ki)*p.KW+kj
								gx[xi] += g * w[wi]
								gw[wi] += g * x[xi]
							}
						}
					}
				}
			}
		}
	}
	return gx, gw
}

// convParams fills in a convolution's output size.
func convParams(batch, c, h, w, out, kh, kw, stride, pad int) backend.ConvParams {
	return backend.ConvParams{Batch: batch, C: c, H: h, W: w, Out: out, KH: kh, KW: kw, Stride: stride, Pad: pad,
		OH: (h+2*pad-kh)/stride + 1, OW: (w+2*pad-kw)/stride + 1}
}

// checkConv2d: whole convolution passes with and without bias, stride and padding, oblong
// kernels, small images grouped into one product and large ones alone, in float64, float32 and
// float32 with operands rounded to bfloat16; gradients written (never accumulated), either one
// alone.
func checkConv2d(s *suite) {
	cases := []backend.ConvParams{
		convParams(3, 2, 7, 6, 4, 3, 3, 1, 1),
		convParams(2, 3, 9, 8, 5, 2, 3, 2, 0),
		convParams(2, 8, 16, 16, 16, 3, 3, 1, 1),
		convParams(1, 4, 12, 10, 6, 5, 5, 1, 2),
	}
	for _, ty := range []struct{ dt, lowp backend.DType }{{backend.F32, backend.F32}, {backend.F64, backend.F64}, {backend.F32, backend.BF16}} {
		for _, p := range cases {
			for _, bias := range []bool{true, false} {
				what := fmt.Sprintf("%s lowp %s, %+v, bias %v", ty.dt, ty.lowp, p, bias)
				x, xv := s.rand(ty.dt, p.Batch*p.C*p.H*p.W, -1, 1)
				w, wv := s.rand(ty.dt, p.Out*p.ColumnRows(), -1, 1)
				var b *backend.Buffer
				var bv []float64
				if bias {
					b, bv = s.rand(ty.dt, p.Out, -1, 1)
				}
				xr, wr := roundAll(ty.lowp, xv), roundAll(ty.lowp, wv)
				y := s.be.AllocUninit(ty.dt, p.Batch*p.Out*p.OH*p.OW)
				s.be.Conv2d(ty.lowp, y, x, w, b, p)
				s.expect("Conv2d "+what, y, convRef(p, xr, wr, bv), 2*tolerance(ty.dt))
				if !bias {
					continue
				}
				gy, gv := s.rand(ty.dt, y.Len, -1, 1)
				wantX, wantW := convGradRef(p, roundAll(ty.lowp, gv), xr, wr)
				gx, gw := s.be.AllocUninit(ty.dt, x.Len), s.be.AllocUninit(ty.dt, w.Len)
				s.be.Conv2dGrad(ty.lowp, gx, gw, gy, x, w, p)
				s.expect("Conv2dGrad gx "+what, gx, wantX, 2*tolerance(ty.dt))
				s.expect("Conv2dGrad gw "+what, gw, wantW, 2*tolerance(ty.dt))
				gx, gw = s.be.AllocUninit(ty.dt, x.Len), s.be.AllocUninit(ty.dt, w.Len)
				s.be.Conv2dGrad(ty.lowp, gx, nil, gy, x, w, p)
				s.expect("Conv2dGrad gx alone "+what, gx, wantX, 2*tolerance(ty.dt))
				s.be.Conv2dGrad(ty.lowp, nil, gw, gy, x, w, p)
				s.expect("Conv2dGrad gw alone "+what, gw, wantW, 2*tolerance(ty.dt))
			}
		}
	}
}

func roundAll(dt backend.DType, v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = round(dt, x)
	}
	return out
}

// checkMaxPool: windows that overlap and that tile, ties and NaN (it is the maximum) in the
// forward pass; the gradient routed through the device's own recorded positions (distinct
// values, so there is one maximum per window), adding where windows overlap.
func checkMaxPool(s *suite) {
	for _, dt := range floats {
		for _, c := range []struct{ planes, h, w, k, stride int }{{2, 6, 6, 3, 2}, {3, 6, 8, 2, 2}, {1, 7, 5, 3, 1}} {
			oh, ow := (c.h-c.k)/c.stride+1, (c.w-c.k)/c.stride+1
			what := fmt.Sprintf("%s %d planes of %d×%d, window %d, stride %d", dt, c.planes, c.h, c.w, c.k, c.stride)
			ref := func(v []float64) ([]float64, []int) {
				y, arg := make([]float64, c.planes*oh*ow), make([]int, c.planes*oh*ow)
				for p := range c.planes {
					for oy := range oh {
						for ox := range ow {
							o := (p*oh+oy)*ow + ox
							bi := p*c.h*c.w + oy*c.stride*c.w + ox*c.stride
							best := v[bi]
							for ki := range c.k {
								for kj := range c.k {
									i := p*c.h*c.w + (oy*c.stride+ki)*c.w + ox*c.stride + kj
									if best == best && (v[i] > best || v[i] != v[i]) {
										best, bi = v[i], i
									}
								}
							}
							y[o], arg[o] = best, bi
						}
					}
				}
				return y, arg
			}
			ties := s.ints(c.planes*c.h*c.w, -3, 4)
			ties[7], ties[len(ties)-2] = math.NaN(), math.NaN()
			x := s.put(dt, ties)
			y, _ := s.poison(dt, c.planes*oh*ow)
			arg := s.be.Alloc(backend.I64, c.planes*oh*ow)
			s.be.MaxPool2d(y, arg, x, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
			want, _ := ref(ties)
			s.expect("MaxPool2d with ties and NaN "+what, y, want, 0)

			x, xv := s.rand(dt, c.planes*c.h*c.w, -3, 3)
			s.be.MaxPool2d(y, arg, x, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
			want, from := ref(xv)
			s.expect("MaxPool2d "+what, y, want, 0)
			gy, gv := s.rand(dt, y.Len, -1, 1)
			dx := s.be.Alloc(dt, x.Len)
			s.be.MaxPool2dGrad(dx, gy, arg, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
			wantDx := make([]float64, x.Len)
			for o, i := range from {
				wantDx[i] += gv[o]
			}
			s.expect("MaxPool2dGrad "+what, dx, wantDx, tolerance(dt))
		}
	}
}

// avgWindow is one axis of an average-pooling window as PyTorch's avg_pool2d and
// adaptive_avg_pool2d define it: the input range [lo, hi) and the divisor's factor.
func avgWindow(i, n, on, k, st, pad int, includePad, adaptive bool) (lo, hi, div int) {
	if adaptive {
		lo = i * n / on
		hi = ((i+1)*n + on - 1) / on
		return lo, hi, hi - lo
	}
	start := i*st - pad
	end := min(start+k, n+pad)
	size := end - start
	lo, hi = max(start, 0), min(end, n)
	if includePad {
		return lo, hi, size
	}
	return lo, hi, hi - lo
}

// checkAvgPool: padded windows counted in the divisor and left out of it, a divisor override,
// a last window past the input (ceil mode), and adaptive windows of unequal sizes, shrinking and
// growing; the gradient overwrites dx.
func checkAvgPool(s *suite) {
	const planes, h, w = 2, 6, 7
	params := []backend.AvgPoolParams{
		{Planes: planes, H: h, W: w, OH: 3, OW: 4, KH: 3, KW: 3, SH: 2, SW: 2, PH: 1, PW: 1, CountIncludePad: true},
		{Planes: planes, H: h, W: w, OH: 3, OW: 4, KH: 3, KW: 2, SH: 2, SW: 2, PH: 1, PW: 1},
		{Planes: planes, H: h, W: w, OH: 2, OW: 2, KH: 2, KW: 2, SH: 3, SW: 3, Divisor: 3},
		{Planes: planes, H: h, W: w, OH: 3, OW: 3, KH: 3, KW: 3, SH: 2, SW: 3, CountIncludePad: true}, // ceil mode: the last windows run past the input
		{Planes: planes, H: h, W: w, OH: 4, OW: 4, Adaptive: true},
		{Planes: planes, H: h, W: w, OH: 9, OW: 10, Adaptive: true},
	}
	for _, dt := range floats {
		for _, p := range params {
			what := fmt.Sprintf("%s %+v", dt, p)
			x, xv := s.rand(dt, planes*h*w, -3, 3)
			y := s.be.AllocUninit(dt, planes*p.OH*p.OW)
			s.be.AvgPool2d(y, x, p)
			gy, gv := s.rand(dt, y.Len, -1, 1)
			want, wantDx := make([]float64, y.Len), make([]float64, x.Len)
			for pl := range planes {
				for i := range p.OH {
					r0, r1, dr := avgWindow(i, h, p.OH, p.KH, p.SH, p.PH, p.CountIncludePad, p.Adaptive)
					for j := range p.OW {
						c0, c1, dc := avgWindow(j, w, p.OW, p.KW, p.SW, p.PW, p.CountIncludePad, p.Adaptive)
						div := float64(dr * dc)
						if p.Divisor > 0 {
							div = float64(p.Divisor)
						}
						o := (pl*p.OH+i)*p.OW + j
						for r := r0; r < r1; r++ {
							for c := c0; c < c1; c++ {
								want[o] += xv[(pl*h+r)*w+c] / div
								wantDx[(pl*h+r)*w+c] += gv[o] / div
							}
						}
					}
				}
			}
			s.expect("AvgPool2d "+what, y, want, tolerance(dt))
			dx, _ := s.poison(dt, x.Len)
			s.be.AvgPool2dGrad(dx, gy, p)
			s.expect("AvgPool2dGrad "+what, dx, wantDx, tolerance(dt))
		}
	}
}
