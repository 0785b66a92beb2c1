package half

import (
	"fmt"
	"math"
	"testing"
)

func TestHalfConversionsRoundTripEveryValue(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := F16ToF32(uint16(h))
		if f != f {
			if g := F16ToF32(F32ToF16(f)); g == g {
				t.Fatalf("f16 NaN %#04x became %v", h, g)
			}
		} else if got := F32ToF16(f); got != uint16(h) {
			t.Fatalf("F32ToF16(F16ToF32(%#04x)=%v) = %#04x", h, f, got)
		}
		f = BF16ToF32(uint16(h))
		if f == f {
			if got := F32ToBF16(f); got != uint16(h) {
				t.Fatalf("F32ToBF16(BF16ToF32(%#04x)=%v) = %#04x", h, f, got)
			}
		}
	}
}

func TestHalfRounding(t *testing.T) {
	cases := []struct {
		f         float32
		f16, bf16 uint16
	}{
		{1, 0x3c00, 0x3f80},
		{-2, 0xc000, 0xc000},
		{65504, 0x7bff, 0x4780},
		{65520, 0x7c00, 0x4780},         // f16: halfway to 65536 rounds to even, Inf (bf16 not checked)
		{1 + 1.0/2048, 0x3c00, 0x3f80},  // f16 tie → even (down)
		{1 + 3.0/2048, 0x3c02, 0x3f80},  // f16 tie → even (up)
		{5.9604645e-08, 0x0001, 0x3380}, // smallest f16 subnormal
		{2.9802322e-08, 0x0000, 0x3300}, // half of it: tie → 0
		{float32(math.Inf(-1)), 0xfc00, 0xff80},
		{1.00390625, 0x3c04, 0x3f80}, // bf16: 1 + 2^-8 is a tie → even (down)
		{1.01171875, 0x3c0c, 0x3f82}, // bf16: 1 + 3·2^-8 tie → even (up)
	}
	for _, c := range cases {
		if got := F32ToF16(c.f); got != c.f16 {
			t.Errorf("F32ToF16(%v) = %#04x, want %#04x", c.f, got, c.f16)
		}
		if c.f == 65520 {
			continue
		}
		if got := F32ToBF16(c.f); got != c.bf16 {
			t.Errorf("F32ToBF16(%v) = %#04x, want %#04x", c.f, got, c.bf16)
		}
	}
}

func ExampleF32ToBF16() {
	bits := F32ToBF16(1.01171875) // 1 + 3·2⁻⁸ is halfway: rounds to the even neighbour
	fmt.Printf("%#04x %v\n", bits, BF16ToF32(bits))
	// Output: 0x3f82 1.015625
}
