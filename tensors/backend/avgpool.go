package backend

// AvgPoolParams describes 2-D average pooling of Planes planes of H×W into OH×OW: windows of
// KH×KW at strides SH, SW over the input padded by PH, PW, or, when Adaptive, the windows of
// adaptive pooling (output row i covers input rows ⌊i·H/OH⌋ to ⌈(i+1)·H/OH⌉, columns alike).
type AvgPoolParams struct {
	Planes, H, W, OH, OW   int
	KH, KW, SH, SW, PH, PW int
	// CountIncludePad counts a window's padded positions in its divisor (PyTorch's default).
	CountIncludePad bool
	// Divisor, when positive, divides every window instead (PyTorch's divisor_override).
	Divisor  int
	Adaptive bool
}

// Rows returns the input rows [lo, hi) of output row i and the factor of its window's divisor
// they contribute (the divisor is Rows' factor times Cols', unless Divisor is set). Every device
// computes windows this way.
func (p AvgPoolParams) Rows(i int) (lo, hi, div int) {
	return window(i, p.H, p.OH, p.KH, p.SH, p.PH, p.CountIncludePad, p.Adaptive)
}

// Cols is Rows for output column j.
func (p AvgPoolParams) Cols(j int) (lo, hi, div int) {
	return window(j, p.W, p.OW, p.KW, p.SW, p.PW, p.CountIncludePad, p.Adaptive)
}

// Scale returns 1/divisor of the window of output (i, j).
func (p AvgPoolParams) Scale(i, j int) float64 {
	if p.Divisor > 0 {
		return 1 / float64(p.Divisor)
	}
	_, _, dr := p.Rows(i)
	_, _, dc := p.Cols(j)
	return 1 / float64(dr*dc)
}

// window is one axis of a pooling window: PyTorch's avg_pool2d (the padded window clipped to the
// padded input counts for the divisor with count_include_pad, the window clipped to the input
// otherwise) or adaptive_avg_pool2d.
func window(i, n, on, k, s, pad int, includePad, adaptive bool) (lo, hi, div int) {
	if adaptive {
		lo, hi = i*n/on, ((i+1)*n+on-1)/on
		return lo, hi, hi - lo
	}
	lo = i*s - pad
	hi = min(lo+k, n+pad)
	padded := hi - lo
	lo, hi = max(lo, 0), min(hi, n)
	if includePad {
		return lo, hi, padded
	}
	return lo, hi, hi - lo
}

// avgPool2d composes average pooling from two products per plane: the pooled planes are A·X·Bᵀ,
// where A [OH, H] holds output row i's weights (its rows' divisor factor over its rows) and B
// [OW, W] output column j's, since every window's divisor is a row factor times a column factor
// (or, with Divisor, 1/Divisor times one). The gradient is Aᵀ·gY·B.
func (x *completed) avgPool2d(y, in *Buffer, p AvgPoolParams) {
	a, b := x.poolMatrices(in.DType, p)
	// T = X·Bᵀ over all planes' rows at once: [Planes·H, W]·[W, OW].
	t := x.tmp(in.DType, p.Planes*p.H*p.OW)
	x.Gemm(in.DType, false, true, 1, p.Planes*p.H, p.OW, p.W, 1, in, 0, p.W, 0, b, 0, p.W, 0, 0, t, 0, p.OW, 0)
	// Y[k] = A·T[k]: [OH, H]·[H, OW] for each plane.
	x.Gemm(in.DType, false, false, p.Planes, p.OH, p.OW, p.H, 1, a, 0, p.H, 0, t, 0, p.OW, p.H*p.OW, 0, y, 0, p.OW, p.OH*p.OW)
	x.release(a, b, t)
}

func (x *completed) avgPool2dGrad(dx, gy *Buffer, p AvgPoolParams) {
	a, b := x.poolMatrices(gy.DType, p)
	// U[k] = Aᵀ·gY[k]: [H, OH]·[OH, OW]; dX = U·B: [Planes·H, OW]·[OW, W].
	u := x.tmp(gy.DType, p.Planes*p.H*p.OW)
	x.Gemm(gy.DType, true, false, p.Planes, p.H, p.OW, p.OH, 1, a, 0, p.H, 0, gy, 0, p.OW, p.OH*p.OW, 0, u, 0, p.OW, p.H*p.OW)
	x.Gemm(gy.DType, false, false, 1, p.Planes*p.H, p.W, p.OW, 1, u, 0, p.OW, 0, b, 0, p.W, 0, 0, dx, 0, p.W, 0)
	x.release(a, b, u)
}

// poolMatrices returns A [OH, H] and B [OW, W] on the device.
func (x *completed) poolMatrices(dt DType, p AvgPoolParams) (a, b *Buffer) {
	ah, bh := NewHost(F64, p.OH*p.H), NewHost(F64, p.OW*p.W)
	for i := range p.OH {
		lo, hi, div := p.Rows(i)
		v := 1 / float64(div)
		if p.Divisor > 0 {
			v = 1 / float64(p.Divisor)
		}
		for h := lo; h < hi; h++ {
			ah.F64[i*p.H+h] = v
		}
	}
	for j := range p.OW {
		lo, hi, div := p.Cols(j)
		v := 1 / float64(div)
		if p.Divisor > 0 {
			v = 1
		}
		for w := lo; w < hi; w++ {
			bh.F64[j*p.W+w] = v
		}
	}
	return x.hostAs(dt, ah), x.hostAs(dt, bh)
}

// hostAs returns the float64 host buffer h as a device buffer of type dt.
func (x *completed) hostAs(dt DType, h *Buffer) *Buffer {
	d := x.fromHost(h)
	if dt == F64 {
		return d
	}
	c := x.tmp(dt, h.Len)
	x.Copy(whole(c, h.Len), whole(d, h.Len), []int{h.Len})
	if d != h {
		x.Release(d)
	}
	return c
}
