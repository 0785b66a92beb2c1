package backend

// ConvParams describe one 2-D convolution: Batch NCHW images of C×H×W and Out filters of
// C×KH×KW with a square Stride and zero padding Pad, giving Out×OH×OW outputs per image.
type ConvParams struct {
	Batch, C, H, W, Out, KH, KW, Stride, Pad, OH, OW int
}

// ColumnRows is C·KH·KW: the rows of an image's unfolded columns and the length of a filter.
func (p ConvParams) ColumnRows() int { return p.C * p.KH * p.KW }

// Pixels is OH·OW: the columns of an image's unfolded columns.
func (p ConvParams) Pixels() int { return p.OH * p.OW }

// ImagesPerGemm is how many images share one gemm. Large images go one at a time: the gemm
// reads and writes the NCHW tensors in place and the column buffer stays in cache. Small ones
// sit side by side so each gemm has enough columns, at the price of a reordering copy. It
// depends on the shapes alone, so every device and thread count groups the same images.
func (p ConvParams) ImagesPerGemm() int {
	l := p.Pixels()
	if l >= 256 {
		return 1
	}
	const maxColumns = 1 << 22 // bounds the column buffer (elements)
	want := (1024 + l - 1) / l
	return max(1, min(p.Batch, want, maxColumns/max(1, p.ColumnRows()*l)))
}

// ConvDevice is what the composed convolution runs on: the core ops and the unfold ops.
type ConvDevice interface {
	Core
	ConvOps
}

// Conv2dByColumns is the composed Conv2d: it unfolds each group of images (ImagesPerGemm) into
// columns and multiplies the filters by them with one Gemm per group, then adds the bias.
func Conv2dByColumns(d ConvDevice, lowp DType, y, x, w, b *Buffer, p ConvParams) {
	o, l, ckk := p.Out, p.Pixels(), p.ColumnRows()
	ch := p.ImagesPerGemm()
	col, tmp := convScratch(d, x.DType, ckk*ch*l, o*ch*l, ch > 1)
	for n0 := 0; n0 < p.Batch; n0 += ch {
		nc := min(ch, p.Batch-n0)
		unfold(d, col, x, p, n0, nc)
		cols := nc * l
		if nc == 1 {
			d.Gemm(lowp, false, false, 1, o, l, ckk, 1, w, 0, ckk, 0, col, 0, l, 0, 0, y, n0*o*l, l, 0)
			continue
		}
		d.Gemm(lowp, false, false, 1, o, cols, ckk, 1, w, 0, ckk, 0, col, 0, cols, 0, 0, tmp, 0, cols, 0)
		// tmp is [o, nc, l]; y wants [nc, o, l].
		d.Copy(Strided{Buf: y, Offset: n0 * o * l, Strides: []int{o * l, l, 1}},
			Strided{Buf: tmp, Strides: []int{l, cols, 1}}, []int{nc, o, l})
	}
	releaseAll(d, col, tmp)
	if b != nil {
		shape := []int{p.Batch, o, l}
		d.Binary(Add, y, Strided{Buf: y, Strides: []int{o * l, l, 1}}, Strided{Buf: b, Strides: []int{0, 1, 0}}, shape)
	}
}

// Conv2dGradByColumns is the composed Conv2dGrad. The weight gradient is accumulated
// transposed, gwᵀ [ckk, o] = Σ col·gyᵀ, then copied out: ckk rows and o columns tile a gemm
// kernel better than o rows and ckk columns do (with 32 filters of 16×3×3, 144 rows are twelve
// 12-row tiles and 32 columns one 32-wide tile).
func Conv2dGradByColumns(d ConvDevice, lowp DType, gx, gw, gy, x, w *Buffer, p ConvParams) {
	o, l, ckk := p.Out, p.Pixels(), p.ColumnRows()
	if gx != nil {
		d.Fill(gx, 0)
	}
	var gwT *Buffer
	if gw != nil {
		gwT = d.AllocUninit(gw.DType, ckk*o)
	}
	ch := p.ImagesPerGemm()
	col, gt := convScratch(d, x.DType, ckk*ch*l, o*ch*l, ch > 1)
	for n0 := 0; n0 < p.Batch; n0 += ch {
		nc := min(ch, p.Batch-n0)
		cols := nc * l
		// gs/gOff address this group's output gradient as [o, cols]: in place for one image,
		// else reordered from [nc, o, l] into gt.
		gs, gOff := gy, n0*o*l
		if nc > 1 {
			d.Copy(Strided{Buf: gt, Strides: []int{l, cols, 1}},
				Strided{Buf: gy, Offset: n0 * o * l, Strides: []int{o * l, l, 1}}, []int{nc, o, l})
			gs, gOff = gt, 0
		}
		if gw != nil {
			unfold(d, col, x, p, n0, nc)
			beta := 1.0
			if n0 == 0 {
				beta = 0
			}
			d.Gemm(lowp, false, true, 1, ckk, o, cols, 1, col, 0, cols, 0, gs, gOff, cols, 0, beta, gwT, 0, o, 0)
		}
		if gx != nil {
			d.Gemm(lowp, true, false, 1, ckk, cols, o, 1, w, 0, ckk, 0, gs, gOff, cols, 0, 0, col, 0, cols, 0)
			for i := 0; i < nc; i++ {
				d.Col2im(gx, (n0+i)*p.C*p.H*p.W, col, i*l, cols, p.C, p.H, p.W, p.KH, p.KW, p.Stride, p.Pad, p.OH, p.OW)
			}
		}
	}
	if gw != nil {
		d.Copy(Strided{Buf: gw, Strides: []int{ckk, 1}}, Strided{Buf: gwT, Strides: []int{1, o}}, []int{o, ckk})
		d.Release(gwT)
	}
	releaseAll(d, col, gt)
}

// convScratch allocates the column buffer and, when groups hold several images (reorder),
// the buffer their outputs are reordered through.
func convScratch(d Core, dt DType, colLen, reorderLen int, reorder bool) (col, tmp *Buffer) {
	col = d.AllocUninit(dt, colLen)
	if reorder {
		tmp = d.AllocUninit(dt, reorderLen)
	}
	return col, tmp
}

// releaseAll releases the buffers that are not nil.
func releaseAll(d Core, bs ...*Buffer) {
	for _, b := range bs {
		if b != nil {
			d.Release(b)
		}
	}
}

// unfold writes images n0..n0+nc side by side into col [ckk, nc·l].
func unfold(d ConvOps, col, x *Buffer, p ConvParams, n0, nc int) {
	l := p.Pixels()
	for i := 0; i < nc; i++ {
		d.Im2col(col, i*l, nc*l, x, (n0+i)*p.C*p.H*p.W, p.C, p.H, p.W, p.KH, p.KW, p.Stride, p.Pad, p.OH, p.OW)
	}
}
