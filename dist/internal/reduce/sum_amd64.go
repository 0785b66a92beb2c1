//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

//go:noescape
func addF32AVX2(dst, src *float32, n int)

//go:noescape
func add2F32AVX2(dst, dst2, src *float32, n int)

//go:noescape
func add2ScaleF32AVX2(dst, dst2, src *float32, n int, k float32)

var hasAVX2 = cpu.X86.HasAVX2

// sumF32 adds src into dst (and copies the result to dst2 unless nil) with
// AVX2 for the bulk; it reports false when AVX2 is missing.
func sumF32(dst, dst2, src []float32) bool {
	if !hasAVX2 {
		return false
	}
	n := len(dst)
	src = src[:n]
	bulk := n &^ 31
	if bulk > 0 {
		if dst2 != nil {
			dst2 = dst2[:n]
			add2F32AVX2(&dst[0], &dst2[0], &src[0], bulk)
		} else {
			addF32AVX2(&dst[0], &src[0], bulk)
		}
	}
	for i := bulk; i < n; i++ {
		dst[i] += src[i]
		if dst2 != nil {
			dst2[i] = dst[i]
		}
	}
	return true
}

// sumScaleF32 sets dst and dst2 to (dst + src)·k, the sum rounded before the
// product, with AVX2 for the bulk; it reports false when AVX2 is missing.
func sumScaleF32(dst, dst2, src []float32, k float32) bool {
	if !hasAVX2 {
		return false
	}
	n := len(dst)
	src, dst2 = src[:n], dst2[:n]
	bulk := n &^ 31
	if bulk > 0 {
		add2ScaleF32AVX2(&dst[0], &dst2[0], &src[0], bulk, k)
	}
	for i := bulk; i < n; i++ {
		s := dst[i] + src[i]
		dst[i] = s * k
		dst2[i] = dst[i]
	}
	return true
}
