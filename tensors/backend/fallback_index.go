package backend

// maxTemp bounds the elements of one temporary of the composed gather and scatter (they
// materialise a one-hot mask over the indexed axis), so large operands go in chunks.
const maxTemp = 1 << 24

// indexSelect copies one row per index (indices read back on the host).
func (x *completed) indexSelect(dst, src, idx *Buffer, outer, n, inner int) {
	ids := x.indices(idx, n)
	m := len(ids)
	for j, r := range ids {
		x.Copy(at(dst, j*inner, m*inner, 1), at(src, int(r)*inner, n*inner, 1), []int{outer, inner})
	}
}

// indexAdd adds one row per index, in index order (repeated indices accumulate).
func (x *completed) indexAdd(dst, src, idx *Buffer, outer, n, inner int) {
	ids := x.indices(idx, n)
	m := len(ids)
	for j, r := range ids {
		x.addInto(at(dst, int(r)*inner, n*inner, 1), at(src, j*inner, m*inner, 1), []int{outer, inner})
	}
}

// wide returns b in a type Where and Reduce take (16-bit floats widened to float32, exactly).
func (x *completed) wide(b *Buffer) (*Buffer, bool) {
	if b.DType != BF16 && b.DType != F16 {
		return b, false
	}
	w := x.tmp(F32, b.Len)
	x.Copy(whole(w, b.Len), whole(b, b.Len), []int{b.Len})
	return w, true
}

// gather selects with a one-hot mask over the indexed axis and sums it away: Where keeps the
// selected value exactly and adds only zeros to it.
func (x *completed) gather(dst, src, idx *Buffer, outer, n, m, inner int) {
	x.checkRange(idx, n)
	s, ws := x.wide(src)
	d := dst
	if ws {
		d = x.tmp(F32, dst.Len)
	}
	it, zero := x.iota(n), x.scalar(s.DType, 0)
	chunk := max(1, maxTemp/max(1, m*n*inner))
	for o0 := 0; o0 < outer; o0 += chunk {
		oc := min(chunk, outer-o0)
		shape := []int{oc, m, n, inner}
		mask := x.tmp(I64, oc*m*n*inner)
		x.Binary(Eq, mask, at(idx, o0*m*inner, m*inner, inner, 0, 1), at(it, 0, 0, 0, 1, 0), shape)
		sel := x.tmp(s.DType, oc*m*n*inner)
		x.Where(sel, whole(mask, shape...), at(s, o0*n*inner, n*inner, 0, inner, 1), at(zero, 0, 0, 0, 0, 0), shape)
		r := x.tmp(s.DType, oc*m*inner)
		x.Reduce(Sum, r, sel, oc*m, n, inner)
		x.Copy(at(d, o0*m*inner, 1), at(r, 0, 1), []int{oc * m * inner})
		x.release(mask, sel, r)
	}
	if ws {
		x.Copy(whole(dst, dst.Len), whole(d, dst.Len), []int{dst.Len})
		x.release(d, s)
	}
	x.release(it, zero)
}

// scatterAdd is gather's adjoint: the same mask, summed over the index axis instead.
func (x *completed) scatterAdd(dst, src, idx *Buffer, outer, n, m, inner int) {
	x.checkRange(idx, n)
	dt := dst.DType
	it, zero := x.iota(n), x.scalar(dt, 0)
	chunk := max(1, maxTemp/max(1, m*n*inner))
	for o0 := 0; o0 < outer; o0 += chunk {
		oc := min(chunk, outer-o0)
		shape := []int{oc, m, n, inner}
		mask := x.tmp(I64, oc*m*n*inner)
		x.Binary(Eq, mask, at(idx, o0*m*inner, m*inner, inner, 0, 1), at(it, 0, 0, 0, 1, 0), shape)
		sel := x.tmp(dt, oc*m*n*inner)
		x.Where(sel, whole(mask, shape...), at(src, o0*m*inner, m*inner, inner, 0, 1), at(zero, 0, 0, 0, 0, 0), shape)
		r := x.tmp(dt, oc*n*inner)
		x.Reduce(Sum, r, sel, oc, m, n*inner)
		x.addInto(at(dst, o0*n*inner, 1), at(r, 0, 1), []int{oc * n * inner})
		x.release(mask, sel, r)
	}
	x.release(it, zero)
}

// padded returns the CHW image at xOff inside a zero border of pad (the image itself, as a view,
// when pad is 0), with its plane size hp×wp.
func (x *completed) padded(in *Buffer, xOff, c, h, w, pad int) (b *Buffer, off, hp, wp int, owned bool) {
	if pad == 0 {
		return in, xOff, h, w, false
	}
	hp, wp = h+2*pad, w+2*pad
	b = x.Alloc(in.DType, c*hp*wp)
	x.Copy(at(b, pad*wp+pad, hp*wp, wp, 1), at(in, xOff, h*w, w, 1), []int{c, h, w})
	return b, 0, hp, wp, true
}

// im2col is one strided copy out of the zero-padded image: col[c, ki, kj, oy, ox] =
// xp[c, oy·stride+ki, ox·stride+kj].
func (x *completed) im2col(col *Buffer, colOff, ldCol int, in *Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int) {
	xp, off, hp, wp, owned := x.padded(in, xOff, c, h, w, pad)
	x.Copy(at(col, colOff, kh*kw*ldCol, kw*ldCol, ldCol, ow, 1),
		at(xp, off, hp*wp, wp, 1, stride*wp, stride), []int{c, kh, kw, oh, ow})
	if owned {
		x.Release(xp)
	}
}

// col2im accumulates each kernel offset's plane into a padded gradient (one offset's windows
// never overlap), then adds the interior into dx.
func (x *completed) col2im(dx *Buffer, xOff int, col *Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int) {
	hp, wp := h+2*pad, w+2*pad
	gp := x.Alloc(dx.DType, c*hp*wp)
	for ki := 0; ki < kh; ki++ {
		for kj := 0; kj < kw; kj++ {
			x.addInto(at(gp, ki*wp+kj, hp*wp, stride*wp, stride),
				at(col, colOff+(ki*kw+kj)*ldCol, kh*kw*ldCol, ow, 1), []int{c, oh, ow})
		}
	}
	x.addInto(at(dx, xOff, h*w, w, 1), at(gp, pad*wp+pad, hp*wp, wp, 1), []int{c, h, w})
	x.Release(gp)
}

// poolTables returns, uploaded, each window's top-left position in its plane ([oh·ow]) and each
// kernel offset's displacement from it ([k·k]), both as plane positions iy·w+ix.
func (x *completed) poolTables(w, k, stride, oh, ow int) (base, disp *Buffer) {
	hb, hd := NewHost(I64, oh*ow), NewHost(I64, k*k)
	for oy := 0; oy < oh; oy++ {
		for ox := 0; ox < ow; ox++ {
			hb.I64[oy*ow+ox] = int64(oy*stride*w + ox*stride)
		}
	}
	for ki := 0; ki < k; ki++ {
		for kj := 0; kj < k; kj++ {
			hd.I64[ki*k+kj] = int64(ki*w + kj)
		}
	}
	return x.fromHost(hb), x.fromHost(hd)
}

// maxPool2d copies the windows out side by side, takes the max and argmax of each, and records
// the argmax as a plane position (what the CPU kernel records).
func (x *completed) maxPool2d(y, arg, in *Buffer, planes, h, w, k, stride, oh, ow int) {
	outs, kk := planes*oh*ow, k*k
	win := x.tmp(in.DType, outs*kk)
	x.Copy(whole(win, planes, oh, ow, k, k), at(in, 0, h*w, stride*w, stride, w, 1), []int{planes, oh, ow, k, k})
	x.Reduce(Max, y, win, outs, kk, 1)
	a := x.tmp(I64, outs)
	x.Reduce(ArgMax, a, win, outs, kk, 1)
	x.lastNaN(a, win, outs, kk)
	base, disp := x.poolTables(w, k, stride, oh, ow)
	d := x.tmp(I64, outs)
	x.Gather(d, disp, a, 1, k*k, outs, 1)
	x.Binary(Add, arg, at(d, 0, oh*ow, 1), at(base, 0, 0, 1), []int{planes, oh * ow})
	x.release(win, a, base, disp, d)
}

// lastNaN replaces a's argmax of each row of win [outs, kk] that holds a NaN by the position of
// its last NaN: the CPU kernel's scan (and PyTorch's) lets each NaN replace the one before,
// where ArgMax keeps the first.
func (x *completed) lastNaN(a, win *Buffer, outs, kk int) {
	shape := []int{outs, kk}
	isNaN := x.tmp(win.DType, outs*kk)
	x.Binary(Ne, isNaN, whole(win, shape...), whole(win, shape...), shape)
	pos := x.tmp(I64, outs*kk) // 1 + the position of each NaN, else 0
	x.Copy(whole(pos, shape...), whole(isNaN, shape...), shape)
	iota, one := x.iota(kk), x.scalar(I64, 1)
	x.Binary(Add, iota, at(iota, 0, 1), at(one, 0, 0), []int{kk})
	x.Binary(Mul, pos, whole(pos, shape...), at(iota, 0, 0, 1), shape)
	last := x.tmp(I64, outs)
	x.Reduce(Max, last, pos, outs, kk, 1)
	lastPos := x.tmp(I64, outs)
	x.Binary(Sub, lastPos, at(last, 0, 1), at(one, 0, 0), []int{outs})
	x.Where(a, at(last, 0, 1), at(lastPos, 0, 1), at(a, 0, 1), []int{outs})
	x.release(isNaN, pos, iota, one, last, lastPos)
}

// maxPool2dGrad turns each recorded position back into a one-hot over its window and adds each
// kernel offset's plane of gradients into dx (one offset's windows never overlap).
func (x *completed) maxPool2dGrad(dx, gy, arg *Buffer, planes, h, w, k, stride, oh, ow int) {
	outs := planes * oh * ow
	base, disp := x.poolTables(w, k, stride, oh, ow)
	rel := x.tmp(I64, outs)
	x.Binary(Sub, rel, at(arg, 0, oh*ow, 1), at(base, 0, 0, 1), []int{planes, oh * ow})
	shape := []int{outs, k * k}
	mask := x.tmp(I64, outs*k*k)
	x.Binary(Eq, mask, at(rel, 0, 1, 0), at(disp, 0, 0, 1), shape)
	zero := x.scalar(dx.DType, 0)
	gw := x.tmp(dx.DType, outs*k*k)
	x.Where(gw, whole(mask, shape...), at(gy, 0, 1, 0), at(zero, 0, 0, 0), shape)
	for ki := 0; ki < k; ki++ {
		for kj := 0; kj < k; kj++ {
			x.addInto(at(dx, ki*w+kj, h*w, stride*w, stride),
				at(gw, ki*k+kj, oh*ow*k*k, ow*k*k, k*k), []int{planes, oh, ow})
		}
	}
	x.release(base, disp, rel, mask, zero, gw)
}
