package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// MaxPool2d implements backend.Backend.
func (c *CPU) MaxPool2d(y, arg, x *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	if x.DType == backend.F64 {
		maxPool(y.F64, arg.I64, x.F64, planes, h, w, k, stride, oh, ow)
		return
	}
	maxPool(y.F32, arg.I64, x.F32, planes, h, w, k, stride, oh, ow)
}

// maxPool writes each window's maximum to y and its index within the plane to arg. As PyTorch's
// max_pool2d, the first of equal maxima wins and a NaN wins over every number (a later NaN over
// an earlier one). The 2×2 window of stride 2 (every CNN's pooling) has a loop of its own.
func maxPool[T float](y []T, arg []int64, x []T, planes, h, w, k, stride, oh, ow int) {
	y32, isF32 := any(y).([]float32)
	x32, _ := any(x).([]float32)
	parallelFor(planes, planes*oh*ow*k*k, func(lo, hi int) {
		if isF32 && k == 2 && stride == 2 &&
			maxPool2x2Vec(y32[lo*oh*ow:hi*oh*ow], arg[lo*oh*ow:hi*oh*ow], x32[lo*h*w:hi*h*w], hi-lo, h, w, oh, ow) {
			return
		}
		for p := lo; p < hi; p++ {
			plane := x[p*h*w : (p+1)*h*w]
			ys, args := y[p*oh*ow:(p+1)*oh*ow], arg[p*oh*ow:(p+1)*oh*ow]
			if k == 2 && stride == 2 {
				maxPool2x2(ys, args, plane, w, oh, ow)
			} else {
				maxPoolPlane(ys, args, plane, w, k, stride, oh, ow)
			}
		}
	})
}

// maxPoolPlane is maxPool of one plane for any window and stride.
func maxPoolPlane[T float](y []T, arg []int64, plane []T, w, k, stride, oh, ow int) {
	for oy := 0; oy < oh; oy++ {
		for ox := 0; ox < ow; ox++ {
			bi := (oy*stride)*w + ox*stride
			best := plane[bi]
			for ki := 0; ki < k; ki++ {
				row := plane[(oy*stride+ki)*w+ox*stride:][:k]
				for kj, v := range row {
					if v > best || v != v {
						best, bi = v, (oy*stride+ki)*w+ox*stride+kj
					}
				}
			}
			y[oy*ow+ox], arg[oy*ow+ox] = best, int64(bi)
		}
	}
}

// maxPool2x2 is maxPool of one plane for 2×2 windows of stride 2: two rows at a time, the four
// elements of a window compared in maxPoolPlane's order.
func maxPool2x2[T float](y []T, arg []int64, plane []T, w, oh, ow int) {
	for oy := 0; oy < oh; oy++ {
		top := 2 * oy * w
		r0, r1 := plane[top:top+2*ow], plane[top+w:top+w+2*ow]
		ys, args := y[oy*ow:(oy+1)*ow], arg[oy*ow:(oy+1)*ow]
		for ox := range ys {
			j := 2 * ox
			a, b, c, d := r0[j], r0[j+1], r1[j], r1[j+1]
			best, bi := a, j
			if b > best || b != b {
				best, bi = b, j+1
			}
			if c > best || c != c {
				best, bi = c, w+j
			}
			if d > best || d != d {
				best, bi = d, w+j+1
			}
			ys[ox], args[ox] = best, int64(top+bi)
		}
	}
}

// MaxPool2dGrad implements backend.Backend.
func (c *CPU) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, h, w, _, _, oh, ow int) {
	if dx.DType == backend.F64 {
		maxPoolGrad(dx.F64, gy.F64, arg.I64, planes, h, w, oh, ow)
		return
	}
	maxPoolGrad(dx.F32, gy.F32, arg.I64, planes, h, w, oh, ow)
}

// maxPoolGrad adds each output's gradient to the input its window took, plane by plane over
// every core (a plane's windows write only that plane).
func maxPoolGrad[T float](dx, gy []T, arg []int64, planes, h, w, oh, ow int) {
	parallelFor(planes, planes*oh*ow, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			d := dx[p*h*w : (p+1)*h*w]
			g, a := gy[p*oh*ow:(p+1)*oh*ow], arg[p*oh*ow:(p+1)*oh*ow]
			for i, gi := range g {
				d[a[i]] += gi
			}
		}
	})
}
