//go:build arm64 && !purego

package reduce

//go:noescape
func addF32NEON(dst, src *float32, n int)

//go:noescape
func add2F32NEON(dst, dst2, src *float32, n int)

//go:noescape
func add2ScaleF32NEON(dst, dst2, src *float32, n int, k float32)

// sumF32 adds src into dst (and copies the result to dst2 unless nil) with
// NEON for the bulk (sum_arm64.s); every arm64 CPU has it.
func sumF32(dst, dst2, src []float32) bool {
	n := len(dst)
	src = src[:n]
	bulk := n &^ 15
	if bulk > 0 {
		if dst2 != nil {
			dst2 = dst2[:n]
			add2F32NEON(&dst[0], &dst2[0], &src[0], bulk)
		} else {
			addF32NEON(&dst[0], &src[0], bulk)
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
// product, with NEON for the bulk.
func sumScaleF32(dst, dst2, src []float32, k float32) bool {
	n := len(dst)
	src, dst2 = src[:n], dst2[:n]
	bulk := n &^ 15
	if bulk > 0 {
		add2ScaleF32NEON(&dst[0], &dst2[0], &src[0], bulk, k)
	}
	for i := bulk; i < n; i++ {
		s := dst[i] + src[i]
		dst[i] = s * k
		dst2[i] = dst[i]
	}
	return true
}
