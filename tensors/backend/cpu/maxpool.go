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

func maxPool[T float](y []T, arg []int64, x []T, planes, h, w, k, stride, oh, ow int) {
	parallelFor(planes, planes*oh*ow*k*k, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			plane := x[p*h*w : (p+1)*h*w]
			for oy := 0; oy < oh; oy++ {
				for ox := 0; ox < ow; ox++ {
					bi := (oy*stride)*w + ox*stride
					best := plane[bi]
					for ki := 0; ki < k; ki++ {
						for kj := 0; kj < k; kj++ {
							i := (oy*stride+ki)*w + ox*stride + kj
							if v := plane[i]; v > best || v != v {
								best, bi = v, i
							}
						}
					}
					o := (p*oh+oy)*ow + ox
					y[o], arg[o] = best, int64(bi)
				}
			}
		}
	})
}

// MaxPool2dGrad implements backend.Backend.
func (c *CPU) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, h, w, _, _, oh, ow int) {
	if dx.DType == backend.F64 {
		maxPoolGrad(dx.F64, gy.F64, arg.I64, planes, h, w, oh, ow)
		return
	}
	maxPoolGrad(dx.F32, gy.F32, arg.I64, planes, h, w, oh, ow)
}

func maxPoolGrad[T float](dx, gy []T, arg []int64, planes, h, w, oh, ow int) {
	for p := 0; p < planes; p++ {
		for i := 0; i < oh*ow; i++ {
			o := p*oh*ow + i
			dx[p*h*w+int(arg[o])] += gy[o]
		}
	}
}
