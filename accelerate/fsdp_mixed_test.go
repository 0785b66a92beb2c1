package accelerate

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// TestFSDPBF16GatherPacksTwoValuesPerSlot packs shards of odd and even lengths at odd and even
// offsets, two bfloat16 values to a float32 slot, and reads back each value rounded to
// bfloat16, as the ops would see it; negative zero and the infinities keep their bits, NaN stays NaN.
func TestFSDPBF16GatherPacksTwoValuesPerSlot(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts [][]float32 // the unit's shards, laid end to end
	}{
		{"one value", [][]float32{{1.2345}}},
		{"odd then even", [][]float32{{1, -2.5, 3.3}, {1e-20, 65504.7}}},
		{"special values", [][]float32{{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			size := 0
			for _, p := range tc.parts {
				size += len(p)
			}
			s := &sharder{c: solo{}, group: 1, paramBF16: true}
			send := make([]float32, (size+1)/2)
			at := 0
			for _, p := range tc.parts {
				packBF16(send, at, p)
				at += len(p)
			}
			got := s.unpackGathered(send, size)
			j := 0
			for _, p := range tc.parts {
				for _, v := range p {
					want := tensors.RoundBFloat16(v)
					if math.Float32bits(got[j]) != math.Float32bits(want) && !(math.IsNaN(float64(want)) && math.IsNaN(float64(got[j]))) {
						t.Errorf("value %d: %g came back as %g; want %g (bfloat16)", j, v, got[j], want)
					}
					j++
				}
			}
		})
	}
}
