//go:build ignore

package main

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/internal/neon"
)

// The streaming kernels of stream_amd64.s and streamops_amd64.s in NEON: 32 lanes a round (two
// 64-byte loads of each operand), the amd64 kernel's one operation a lane, and the results
// written with STNP, the non-temporal pair store, four pairs of Q registers to 128 bytes from
// R0. d is 32-byte aligned and n a positive multiple of 32 (streamF32, streamVV and streamVS see
// to both). None ends with a barrier: see sfence in stream_arm64.go.

// storeNT writes V0–V7 to the 128 bytes at R0 with non-temporal pair stores and advances R0.
func storeNT() {
	for i := neon.V(0); i < 8; i += 2 {
		p(neon.STNPQ(neon.V0+i, neon.V1+i, 0, 16*int(i)))
	}
	p("ADD $128, R0, R0")
}

// streamKernels writes copyNTF32, fillF32 and the non-temporal Add, Sub and Mul kernels.
func streamKernels() {
	text("copyNTF32", "(d, s *float32, n int)", 24)
	fmt.Fprintf(&out, "// d[i] = s[i] with non-temporal stores.\n")
	p("MOVD d+0(FP), R0")
	p("MOVD s+8(FP), R1")
	p("MOVD n+16(FP), R3")
	label("cnt_loop")
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	p("VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]")
	storeNT()
	p("SUBS $32, R3, R3")
	p("BNE cnt_loop")
	p("RET")

	text("fillF32", "(d *float32, v float32, n int)", 24)
	fmt.Fprintf(&out, "// d[i] = v for i < n (a positive multiple of 32), through the cache: a filled gradient is\n// read again at once.\n")
	p("MOVD d+0(FP), R0")
	p("FMOVS v+8(FP), F0")
	p("MOVD n+16(FP), R3")
	for v := neon.V0; v < neon.V4; v++ {
		p(neon.DUP(v, neon.V0, 0))
	}
	label("fill_loop")
	p("VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)")
	p("VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)")
	p("SUBS $32, R3, R3")
	p("BNE fill_loop")
	p("RET")

	ntBinary("add", "+", neon.FADD, false)
	ntBinary("sub", "−", neon.FSUB, false)
	ntBinary("mul", "·", neon.FMUL, false)
	ntBinary("add", "+", neon.FADD, true)
	ntBinary("mul", "·", neon.FMUL, true)
}

// ntBinary writes nameVVF32NT, d = a op b, or with scalar nameVSF32NT, d = a op s (sym is op's
// sign in the comment): 32 lanes of a a round, combined with 32 of b or with s, and stored with
// storeNT.
func ntBinary(name, sym string, op func(d, n, m neon.V) string, scalar bool) {
	kind, rhs, sig := "VV", "b", "(d, a, b *float32, n int)"
	if scalar {
		kind, rhs, sig = "VS", "s", "(d, a *float32, s float32, n int)"
	}
	text(name+kind+"F32NT", sig, 32)
	fmt.Fprintf(&out, "// d = a %s %s with non-temporal stores.\n", sym, rhs)
	loop := name + strings.ToLower(kind) + "nt_loop"
	p("MOVD d+0(FP), R0")
	p("MOVD a+8(FP), R1")
	if scalar {
		p("FMOVS s+16(FP), F31")
		p("VDUP V31.S[0], V31.S4")
	} else {
		p("MOVD b+16(FP), R2")
	}
	p("MOVD n+24(FP), R3")
	label(loop)
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	p("VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]")
	if !scalar {
		p("VLD1.P 64(R2), [V16.S4, V17.S4, V18.S4, V19.S4]")
		p("VLD1.P 64(R2), [V20.S4, V21.S4, V22.S4, V23.S4]")
	}
	for i := neon.V(0); i < 8; i++ {
		m := neon.V31
		if !scalar {
			m = neon.V16 + i
		}
		p(op(neon.V0+i, neon.V0+i, m))
	}
	storeNT()
	p("SUBS $32, R3, R3")
	p("BNE %s", loop)
	p("RET")
}
