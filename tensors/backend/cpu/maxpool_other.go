//go:build !amd64 || purego

package cpu

// maxPool2x2Vec has no vector kernel on this platform: maxPool2x2's loop does every plane.
func maxPool2x2Vec(y []float32, arg []int64, x []float32, planes, h, w, oh, ow int) bool {
	return false
}
