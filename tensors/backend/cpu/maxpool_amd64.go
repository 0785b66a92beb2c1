//go:build amd64 && !purego

package cpu

// maxPool2x2AVX512 is maxPool2x2 over planes whole planes (maxpool_amd64.s). Needs AVX-512 and
// oh, ow ≥ 1.
//
//go:noescape
func maxPool2x2AVX512(y *float32, arg *int64, x *float32, planes, h, w, oh, ow int)

// maxPool2x2Vec runs maxPool2x2 on every plane of x with AVX-512 and reports whether it did.
func maxPool2x2Vec(y []float32, arg []int64, x []float32, planes, h, w, oh, ow int) bool {
	if !haveAVX512 || planes == 0 || oh == 0 || ow == 0 {
		return false
	}
	_, _, _ = y[planes*oh*ow-1], arg[planes*oh*ow-1], x[planes*h*w-1]
	if 2*oh > h || 2*ow > w {
		panic("cpu: maxPool2x2Vec: outputs past the input")
	}
	maxPool2x2AVX512(&y[0], &arg[0], &x[0], planes, h, w, oh, ow)
	return true
}
