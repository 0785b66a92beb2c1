package cpu

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"runtime"
	"testing"

	"github.com/goaccel/goaccel/internal/half"
)

func TestExpfIsWithinTwoUlpOfMathExp(t *testing.T) {
	for x := float32(-103); x < 88.7; x += 0.0137 {
		want := math.Exp(float64(x))
		got := float64(expf(x))
		ulp := float64(math.Nextafter32(float32(want), float32(math.Inf(1))) - float32(want))
		if math.Abs(got-want) > 2*ulp {
			t.Fatalf("expf(%v) = %v, want %v (±2 ulp = %v)", x, got, want, 2*ulp)
		}
	}
	if !math.IsInf(float64(expf(100)), 1) || expf(-200) != 0 || !math.IsNaN(float64(expf(float32(math.NaN())))) {
		t.Fatal("expf special cases")
	}
}

func TestExpShiftSumMatchesMathExp(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 64, 1003} {
		src := make([]float32, n)
		for i := range src {
			src[i] = float32(i%53)*0.7 - 30
		}
		shift := float32(10)
		dst := make([]float32, n)
		sum := expShiftSum(dst, src, shift)
		var want float64
		for i, v := range src {
			w := math.Exp(float64(v - shift))
			want += w
			if math.Abs(float64(dst[i])-w) > 3e-7*w+1e-37 {
				t.Fatalf("n=%d: exp(%v) = %v, want %v", n, v-shift, dst[i], w)
			}
		}
		if math.Abs(sum-want) > 1e-6*want {
			t.Fatalf("n=%d: sum %v, want %v", n, sum, want)
		}
	}
}

func TestRoundF16MatchesBitConversion(t *testing.T) {
	for b := uint64(0); b < 1<<32; b += 997 {
		v := math.Float32frombits(uint32(b))
		if v != v {
			continue
		}
		got, want := roundF16(v), half.F16ToF32(half.F32ToF16(v))
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("roundF16(%g) = %g, want %g", v, got, want)
		}
	}
}

func TestMaxF32MatchesScalarLoopForEveryLengthAndPosition(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 16, 17, 31, 1000} {
		for at := 0; at < n; at += 1 + n/7 {
			s := make([]float32, n)
			for i := range s {
				s[i] = -float32(i%13) - 1
			}
			s[at] = 5
			if got, want := maxF32(s), maxScalarF32(s); got != want || got != 5 {
				t.Fatalf("n=%d max at %d: maxF32 = %v, scalar = %v, want 5", n, at, got, want)
			}
		}
	}
}

// TestExpfGivesTheSameBitsOnEveryPlatform: expf's multiply-adds are not fused on any platform
// (arm64's compiler fuses them unless told not to), so its results are the bits amd64 gives,
// recorded here as a hash of e^x for 20,001 values of x in [-100, 100].
func TestExpfGivesTheSameBitsOnEveryPlatform(t *testing.T) {
	h := sha256.New()
	for i := -10000; i <= 10000; i++ {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(expf(float32(i)/100)))
		h.Write(b[:])
	}
	const amd64 = "f5591672"
	if got := hex.EncodeToString(h.Sum(nil))[:8]; got != amd64 {
		t.Fatalf("expf's bits hash to %s on %s, %s on amd64", got, runtime.GOARCH, amd64)
	}
}
