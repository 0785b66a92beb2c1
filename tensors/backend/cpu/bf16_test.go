package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/internal/half"
)

// TestF32ToBF16MatchesTheScalarRounding: the vector conversion gives half.F32ToBF16's bits for
// random values, ties, subnormals, infinities and NaNs, at every length around the lane count.
func TestF32ToBF16MatchesTheScalarRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0x7f800001), math.Float32frombits(0xffc00001),
		math.Float32frombits(0x3f808000), math.Float32frombits(0x3f818000), math.Float32frombits(0x00000001),
		math.Float32frombits(0x007fffff), math.Float32frombits(0x7f7fffff), math.Float32frombits(0x3f80ffff)}
	for _, n := range []int{0, 1, 15, 16, 17, 33, 1000} {
		s := make([]float32, n)
		for i := range s {
			if i < len(special) && n >= len(special) {
				s[i] = special[i]
			} else {
				s[i] = math.Float32frombits(r.Uint32())
			}
		}
		d := make([]uint16, n)
		f32ToBF16(d, s)
		for i, v := range s {
			if want := half.F32ToBF16(v); d[i] != want {
				t.Fatalf("n %d: element %d (bits %#08x): %#04x, want %#04x", n, i, math.Float32bits(v), d[i], want)
			}
		}
	}
}
