package cpu

import (
	"sync"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Im2col implements backend.Backend.
func (c *CPU) Im2col(col *backend.Buffer, colOff, ldCol int, x *backend.Buffer, xOff, ch, h, w, kh, kw, stride, pad, oh, ow int) {
	if x.DType == backend.F64 {
		im2col(col.F64[colOff:], ldCol, x.F64[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, false)
		return
	}
	im2col(col.F32[colOff:], ldCol, x.F32[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, false)
}

// Col2im implements backend.Backend.
func (c *CPU) Col2im(dx *backend.Buffer, xOff int, col *backend.Buffer, colOff, ldCol, ch, h, w, kh, kw, stride, pad, oh, ow int) {
	if dx.DType == backend.F64 {
		im2col(col.F64[colOff:], ldCol, dx.F64[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, true)
		return
	}
	im2col(col.F32[colOff:], ldCol, dx.F32[xOff:], ch, h, w, kh, kw, stride, pad, oh, ow, true)
}

// im2col unfolds x into col (rows ldCol apart), or with back set accumulates col into x.
func im2col[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, stride, pad, oh, ow int, back bool) {
	if !back && stride == 1 && ow == w {
		im2colSameWidth(col, ldCol, x, ch, h, w, kh, kw, pad, oh)
		return
	}
	if stride == 2 && w >= 4 {
		im2colStride2(col, ldCol, x, ch, h, w, kh, kw, pad, oh, ow, back)
		return
	}
	im2colRows(col, ldCol, x, ch, h, w, kh, kw, stride, pad, oh, ow, back)
}

// splitPools hold the scratch planes of im2colStride2, of float32 and of float64.
var splitPools [2]sync.Pool

// im2colStride2 is im2colRows for stride 2. Each input row is first split into its even columns
// followed by its odd ones, so that the inputs an output row reads (every other column) lie
// side by side: every column row is then a contiguous copy, or, back, a contiguous accumulation
// into split rows that are merged into the image at the end.
func im2colStride2[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, pad, oh, ow int, back bool) {
	n := ch * h * w
	var zero T
	pool := &splitPools[unsafe.Sizeof(zero)/8]
	buf, _ := pool.Get().(*[]T)
	if buf == nil || cap(*buf) < n {
		b := make([]T, n)
		buf = &b
	}
	split := (*buf)[:n]
	defer pool.Put(buf)
	we := (w + 1) / 2 // even columns of a row
	if back {
		clear(split)
	} else {
		for r := 0; r < ch*h; r++ {
			row, out := x[r*w:(r+1)*w], split[r*w:(r+1)*w]
			ev, od := out[:we], out[we:]
			for j := range od {
				ev[j], od[j] = row[2*j], row[2*j+1]
			}
			if w%2 == 1 {
				ev[we-1] = row[w-1]
			}
		}
	}
	for ci := 0; ci < ch; ci++ {
		plane := split[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := 0, oh
			if pad > ki {
				oy0 = min(oh, (pad-ki+1)/2)
			}
			if last := h - 1 + pad - ki; last < 0 {
				oy1 = 0
			} else {
				oy1 = min(oh, last/2+1)
			}
			oy1 = max(oy1, oy0)
			for kj := 0; kj < kw; kj++ {
				rows := col[((ci*kh+ki)*kw+kj)*ldCol:]
				// Output column ox reads input column ix0 + 2·ox: in the half of ix0's parity, at
				// ox + ⌊ix0/2⌋.
				ix0 := kj - pad
				lo, hi := 0, ow
				if ix0 < 0 {
					lo = min(ow, (-ix0+1)/2)
				}
				if last := w - 1 - ix0; last < 0 {
					hi = 0
				} else {
					hi = min(ow, last/2+1)
				}
				hi = max(hi, lo)
				if !back {
					clear(rows[:oy0*ow])
					clear(rows[oy1*ow : oh*ow])
				}
				if hi == lo {
					if !back {
						clear(rows[oy0*ow : oy1*ow])
					}
					continue
				}
				half, q := 0, ix0>>1 // arithmetic shift: ⌊ix0/2⌋ for negative ix0 too
				if ix0&1 != 0 {
					half = we
				}
				base := (2*oy0-pad+ki)*w + half + lo + q
				for oy := oy0; oy < oy1; oy, base = oy+1, base+2*w {
					dst := rows[oy*ow : (oy+1)*ow : (oy+1)*ow]
					s := plane[base : base+hi-lo]
					d := dst[lo:hi]
					if back {
						for i, v := range d {
							s[i] += v
						}
						continue
					}
					for i := range dst[:lo] {
						dst[i] = 0
					}
					//lint:ignore S1001 rows are short (image width): an inline loop beats the call of memmove
					for i, v := range s {
						d[i] = v
					}
					for i := hi; i < ow; i++ {
						dst[i] = 0
					}
				}
			}
		}
	}
	if back {
		for r := 0; r < ch*h; r++ {
			row, in := x[r*w:(r+1)*w], split[r*w:(r+1)*w]
			ev, od := in[:we], in[we:]
			for j := range od {
				row[2*j] += ev[j]
				row[2*j+1] += od[j]
			}
			if w%2 == 1 {
				row[w-1] += ev[we-1]
			}
		}
	}
}

// im2colRows is im2col (or, with back, its accumulating inverse) one output row at a time.
func im2colRows[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, stride, pad, oh, ow int, back bool) {
	for ci := 0; ci < ch; ci++ {
		plane := x[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := 0, oh
			if pad > ki {
				oy0 = min(oh, (pad-ki+stride-1)/stride)
			}
			if last := h - 1 + pad - ki; last < 0 {
				oy1 = 0
			} else {
				oy1 = min(oh, last/stride+1)
			}
			oy1 = max(oy1, oy0)
			for kj := 0; kj < kw; kj++ {
				rows := col[((ci*kh+ki)*kw+kj)*ldCol:]
				// The valid part of an output row is ox in [lo, hi), reading the input at
				// ix0 + ox·stride.
				ix0 := kj - pad
				lo, hi := 0, ow
				if ix0 < 0 {
					lo = min(ow, (-ix0+stride-1)/stride)
				}
				if last := w - 1 - ix0; last < 0 {
					hi = 0
				} else {
					hi = min(ow, last/stride+1)
				}
				hi = max(hi, lo)
				if !back {
					clear(rows[:oy0*ow])
					clear(rows[oy1*ow : oh*ow])
				}
				if hi == lo {
					if !back {
						clear(rows[oy0*ow : oy1*ow])
					}
					continue
				}
				n := hi - lo
				base := (oy0*stride-pad+ki)*w + ix0 + lo*stride
				for oy := oy0; oy < oy1; oy, base = oy+1, base+stride*w {
					dst := rows[oy*ow : (oy+1)*ow : (oy+1)*ow]
					d := dst[lo:hi]
					switch {
					case back && stride == 1:
						s := plane[base : base+n]
						for i, v := range d {
							s[i] += v
						}
					case back:
						s := plane[base : base+(n-1)*stride+1]
						for i, v := range d {
							s[i*stride] += v
						}
					default:
						// Rows are short (image width): inline loops beat the calls of memmove
						// and memclr.
						for i := range dst[:lo] {
							dst[i] = 0
						}
						if stride == 1 {
							s := plane[base : base+n]
							//lint:ignore S1001 rows are short (image width): an inline loop beats the call of memmove
							for i, v := range s {
								d[i] = v
							}
						} else {
							s := plane[base : base+(n-1)*stride+1]
							for i := range d {
								d[i] = s[i*stride]
							}
						}
						for i := hi; i < ow; i++ {
							dst[i] = 0
						}
					}
				}
			}
		}
	}
}

// im2colSameWidth is im2col for stride 1 when the output is as wide as the input ("same"
// padding along x): each column row is then the input plane shifted by a constant, so the valid
// rows go over in one copy and only the padding columns and rows are zeroed afterwards.
func im2colSameWidth[T float](col []T, ldCol int, x []T, ch, h, w, kh, kw, pad, oh int) {
	l := oh * w
	for ci := 0; ci < ch; ci++ {
		plane := x[ci*h*w : (ci+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			// Output rows oy0..oy1-1 read input rows inside the image.
			oy0, oy1 := max(0, pad-ki), min(oh, h+pad-ki)
			for kj := 0; kj < kw; kj++ {
				r := ((ci*kh+ki)*kw + kj) * ldCol
				dst := col[r : r+l]
				ix0 := kj - pad
				lo, hi := max(0, -ix0), min(w, w-ix0)
				if oy0 >= oy1 || lo >= hi {
					clear(dst)
					continue
				}
				a, b := oy0*w+lo, (oy1-1)*w+hi
				shift := (ki-pad)*w + ix0
				copy(dst[a:b], plane[a+shift:b+shift])
				clear(dst[:oy0*w+lo])
				clear(dst[(oy1-1)*w+hi:])
				// The margins are a column or two: stores in line beat a clear call per row.
				for oy := oy0; oy < oy1; oy++ {
					row := dst[oy*w : (oy+1)*w]
					for i := range lo {
						row[i] = 0
					}
					for i := hi; i < w; i++ {
						row[i] = 0
					}
				}
			}
		}
	}
}
