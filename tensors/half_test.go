package tensors

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/internal/half"
)

func f32(bits uint32) float32 { return math.Float32frombits(bits) }

func TestBFloat16RoundsToNearestEven(t *testing.T) {
	cases := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3f80},
		{"exact", -2.5, 0xc020},
		{"below-half-rounds-down", f32(0x3f807fff), 0x3f80},
		{"tie-to-even-down", f32(0x3f808000), 0x3f80},
		{"tie-to-even-up", f32(0x3f818000), 0x3f82},
		{"above-half-rounds-up", f32(0x3f808001), 0x3f81},
		{"overflow-to-inf", f32(0x7f7fffff), 0x7f80},
		{"inf", float32(math.Inf(1)), 0x7f80},
		{"-inf", float32(math.Inf(-1)), 0xff80},
		{"negative-zero", float32(math.Copysign(0, -1)), 0x8000},
		{"subnormal", f32(0x00018000), 0x0002},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := half.F32ToBF16(c.in); got != c.want {
				t.Fatalf("F32ToBF16(%#08x) = %#04x, want %#04x", math.Float32bits(c.in), got, c.want)
			}
		})
	}
	nan := half.F32ToBF16(f32(0x7f800001)) // signalling NaN whose payload sits in the low bits
	if !math.IsNaN(float64(half.BF16ToF32(nan))) {
		t.Fatalf("NaN became %#04x", nan)
	}
}

func TestFloat16RoundsToNearestEven(t *testing.T) {
	cases := []struct {
		name string
		in   float32
		want uint16
	}{
		{"one", 1, 0x3c00},
		{"max", 65504, 0x7bff},
		{"tie-to-even-down", 1 + 1.0/2048, 0x3c00},
		{"tie-to-even-up", 1 + 3.0/2048, 0x3c02},
		{"above-half-up", 1 + 1.0/2048 + 1.0/65536, 0x3c01},
		{"overflow-rounds-to-inf", 65520, 0x7c00},
		{"just-below-overflow", 65519, 0x7bff},
		{"min-normal", float32(math.Ldexp(1, -14)), 0x0400},
		{"min-subnormal", float32(math.Ldexp(1, -24)), 0x0001},
		{"half-min-subnormal-ties-to-zero", float32(math.Ldexp(1, -25)), 0x0000},
		{"above-half-min-subnormal", float32(math.Ldexp(1.5, -25)), 0x0001},
		{"subnormal-tie-up-to-even", float32(math.Ldexp(3, -25)), 0x0002},
		{"largest-subnormal-rounds-to-normal", float32(math.Ldexp(1023.5, -24)), 0x0400},
		{"negative", -2, 0xc000},
		{"inf", float32(math.Inf(1)), 0x7c00},
		{"-inf", float32(math.Inf(-1)), 0xfc00},
		{"tiny", 1e-30, 0x0000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := half.F32ToF16(c.in); got != c.want {
				t.Fatalf("F32ToF16(%v) = %#04x, want %#04x", c.in, got, c.want)
			}
		})
	}
	if h := half.F32ToF16(float32(math.NaN())); !math.IsNaN(float64(half.F16ToF32(h))) {
		t.Fatalf("NaN became %#04x", h)
	}
}

// TestFloat16RoundTripIsExactForEveryHalf widens all 65536 half values and rounds them back.
func TestFloat16RoundTripIsExactForEveryHalf(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := half.F16ToF32(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if back := half.F32ToF16(f); back != uint16(h) {
			t.Fatalf("%#04x -> %v -> %#04x", h, f, back)
		}
	}
	for h := 0; h < 1<<16; h++ {
		f := half.BF16ToF32(uint16(h))
		if math.IsNaN(float64(f)) {
			continue
		}
		if back := half.F32ToBF16(f); back != uint16(h) {
			t.Fatalf("bf16 %#04x -> %v -> %#04x", h, f, back)
		}
	}
}

func TestAsTypeConvertsAndBackpropagates(t *testing.T) {
	x := New([]float32{1.00390625, -3.14159, 70000}, 3).SetRequiresGrad(true)
	b := x.AsType(BFloat16)
	if b.DType() != BFloat16 {
		t.Fatalf("dtype %s", b.DType())
	}
	if got := b.Float32s(); got[0] != 1 || got[1] != -3.140625 || got[2] != 70144 {
		t.Fatalf("bfloat16 values %v", got)
	}
	h := x.AsType(Float16).Float32s()
	if h[0] != 1.00390625 || !math.IsInf(float64(h[2]), 1) {
		t.Fatalf("float16 values %v", h)
	}
	b.AsType(Float32).MulScalar(2).Sum().Backward()
	if g := x.Grad().Float32s(); g[0] != 2 || g[2] != 2 {
		t.Fatalf("grad through AsType %v, want 2s", g)
	}
	if x.AsType(Float64).DType().String() != "float64" || FromInt64([]int64{3}, 1).AsType(Float32).Item() != 3 {
		t.Fatal("AsType to float64 / from int64")
	}
}

// TestAutocastMatchesRoundedInputsWithFloat32Accumulation checks Autocast's matmul, Linear and
// Conv2d against float64 products of the operands rounded to the low-precision type.
func TestAutocastMatchesRoundedInputsWithFloat32Accumulation(t *testing.T) {
	g := NewGenerator(2)
	a, b := g.Randn(17, 40), g.Randn(40, 9)
	for _, dt := range []DType{BFloat16, Float16} {
		var got, lin *Tensor
		Autocast(dt, func() {
			got = a.MatMul(b)
			lin = Linear(a, b.T(), nil)
		})
		if got.DType() != Float32 {
			t.Fatalf("%s: result dtype %s, want float32", dt, got.DType())
		}
		want := a.AsType(dt).AsType(Float64).MatMul(b.AsType(dt).AsType(Float64))
		exact := a.AsType(Float64).MatMul(b.AsType(Float64))
		gv, lv, wv, ev := got.Float64s(), lin.Float64s(), want.Float64s(), exact.Float64s()
		differs := false
		for i := range wv {
			if math.Abs(gv[i]-wv[i]) > 1e-4*(1+math.Abs(wv[i])) || math.Abs(lv[i]-wv[i]) > 1e-4*(1+math.Abs(wv[i])) {
				t.Fatalf("%s: element %d = %v (linear %v), rounded reference %v", dt, i, gv[i], lv[i], wv[i])
			}
			differs = differs || math.Abs(gv[i]-ev[i]) > 1e-3
		}
		if !differs {
			t.Fatalf("%s: results equal the float32 product; inputs were not rounded", dt)
		}
	}
	if autocastType() != Float32 {
		t.Fatal("Autocast left the mode on")
	}
}

// TestAutocastBackwardUsesRoundedOperands checks Linear's and MatMul's gradients under
// Autocast(BFloat16): each backward product multiplies bfloat16-rounded operands (the upstream
// gradient included) with float32 accumulation.
func TestAutocastBackwardUsesRoundedOperands(t *testing.T) {
	g := NewGenerator(4)
	x, w, up := g.Randn(6, 20), g.Randn(5, 20), g.Randn(6, 5)
	r := func(t *Tensor) *Tensor { return t.AsType(BFloat16).AsType(Float64) }
	wantGX := r(up).MatMul(r(w)).Float64s()
	wantGW := r(up).T().MatMul(r(x)).Float64s()
	for _, c := range []struct {
		name string
		f    func(x, w *Tensor) *Tensor
	}{
		{"Linear", func(x, w *Tensor) *Tensor { return Linear(x, w, nil) }},
		{"MatMul", func(x, w *Tensor) *Tensor { return x.MatMul(w.T()) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			xl, wl := x.Clone().SetRequiresGrad(true), w.Clone().SetRequiresGrad(true)
			Autocast(BFloat16, func() { c.f(xl, wl).BackwardWith(up) })
			for _, p := range []struct {
				got  []float64
				want []float64
			}{{xl.Grad().Float64s(), wantGX}, {wl.Grad().Float64s(), wantGW}} {
				for i := range p.want {
					if math.Abs(p.got[i]-p.want[i]) > 1e-4*(1+math.Abs(p.want[i])) {
						t.Fatalf("gradient element %d = %v, rounded reference %v", i, p.got[i], p.want[i])
					}
				}
			}
		})
	}
}

// TestBFloat16OperandsUnderAutocastMultiplyWithoutConversion pins the direct bfloat16 product:
// the same values and gradients as float32 operands rounded to bfloat16.
func TestBFloat16OperandsUnderAutocastMultiplyWithoutConversion(t *testing.T) {
	g := NewGenerator(4)
	a32, b32 := g.Randn(3, 5), g.Randn(5, 4)
	for _, d := range testDevices {
		a := a32.AsType(BFloat16).To(d).SetRequiresGrad(true)
		b := b32.AsType(BFloat16).To(d).SetRequiresGrad(true)
		ra := a32.AsType(BFloat16).AsType(Float32).SetRequiresGrad(true)
		rb := b32.AsType(BFloat16).AsType(Float32).SetRequiresGrad(true)
		var out, ref *Tensor
		Autocast(BFloat16, func() { out, ref = a.MatMul(b), ra.MatMul(rb) })
		if out.DType() != Float32 {
			t.Fatalf("%s: product dtype %s, want float32", d, out.DType())
		}
		out.Sum().Backward()
		ref.Sum().Backward()
		for i, v := range ref.Float32s() {
			if out.Float32s()[i] != v {
				t.Fatalf("%s: product %v, want %v", d, out.Float32s(), ref.Float32s())
			}
		}
		if a.Grad().DType() != BFloat16 || a.Grad().Float32s()[0] != ra.Grad().AsType(BFloat16).Float32s()[0] {
			t.Fatalf("%s: gradient %s %v, want bfloat16 %v", d, a.Grad().DType(), a.Grad().Float32s(), ra.Grad().Float32s())
		}
	}
}
