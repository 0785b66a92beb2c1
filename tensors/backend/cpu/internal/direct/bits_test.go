package direct

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// resultBits is the FNV-1a hash of the bits of every plan's results over shapes (forward,
// input gradient and weight gradient; direct, planar and Winograd) as kernels_amd64.s computes
// them. The NEON kernels of kernels_arm64.s round every operation as the AVX-512 ones do, so
// arm64 gives the same bits; a change to either's order of operations shows here.
const resultBits = 0xcbbcff8770a1205b

func TestKernelsGiveTheSameBitsOnEveryArchitecture(t *testing.T) {
	if !Available() {
		t.Skip("no convolution kernels on this CPU")
	}
	h := fnv.New64a()
	add := func(v []float32) {
		for _, f := range v {
			h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(f)))
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, s := range shapes {
		oh, ow := s.OH(), s.OW()
		x, w, bias := randoms(r, s.C*s.H*s.W), randoms(r, s.Out*s.Taps()), randoms(r, s.Out)
		gy := randoms(r, s.Out*oh*ow)
		planar, wino := s.KH == 3 && s.KW == 3, WinogradFits(s)
		forward := []ImagePlan{NewForward(s, w, bias)}
		grads := []WeightGradPlan{NewWeightGrad(s)}
		if planar {
			forward = append(forward, NewPlanarForward(s, w, bias))
			grads = append(grads, NewPlanarWeightGrad(s))
		}
		if wino {
			forward = append(forward, NewWinogradForward(s, w, bias))
			grads = append(grads, NewWinogradWeightGrad(s))
		}
		var backward []ImagePlan
		if InputGradFits(s) {
			backward = append(backward, NewInputGrad(s, w))
			if planar {
				backward = append(backward, NewPlanarInputGrad(s, w))
			}
			if ts, _ := rotatedShape(s); WinogradFits(ts) {
				backward = append(backward, NewWinogradInputGrad(s, w))
			}
		}
		for _, p := range forward {
			y := make([]float32, s.Out*oh*ow)
			p.Image(y, x, make([]float32, p.ScratchLen()))
			add(y)
		}
		for _, p := range backward {
			gx := make([]float32, s.C*s.H*s.W)
			p.Image(gx, gy, make([]float32, p.ScratchLen()))
			add(gx)
		}
		for _, p := range grads {
			scratch := make([]float32, p.ScratchLen())
			accs := [][]float32{make([]float32, p.AccLen()), make([]float32, p.AccLen())}
			p.AddWeightGrad(accs[0], x, gy, scratch)
			p.AddWeightGrad(accs[1], x, gy, scratch)
			gw := make([]float32, s.Out*s.Taps())
			p.WeightGrad(gw, accs...)
			add(gw)
		}
	}
	if got := h.Sum64(); got != resultBits {
		t.Errorf("the kernels' results hash to %#x, want %#x (amd64's)", got, uint64(resultBits))
	}
}
