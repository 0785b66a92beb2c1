package neon

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// every returns one encoding of each encoder, with registers and lanes that
// exercise every field (high registers, odd lanes).
func every() []string {
	return []string{
		FADD(V1, V2, V3), FADD2D(V31, V30, V29), FSUB(V4, V5, V6), FMUL(V7, V8, V9),
		FDIV(V10, V11, V12), FMAX(V13, V14, V15), FMIN(V16, V17, V18), FMLA(V19, V20, V21),
		FMLS(V22, V23, V24), FCMGT(V25, V26, V27), FCMGE(V28, V29, V30), FCMEQ(V31, V0, V1),
		BSL(V2, V3, V4), AND(V5, V6, V7), ORR(V8, V9, V10), EOR(V11, V12, V13),
		ADD(V14, V15, V16), SUB(V17, V18, V19), FADDP(V20, V21, V22), FMAXP(V23, V24, V25),
		FSQRT(V26, V27), FNEG(V28, V29), FABS(V30, V31), FRINTM(V0, V1), FRINTN(V2, V3),
		FCVTZS(V4, V5), SCVTF(V6, V7), FCVTL(V8, V9), FCVTL2(V10, V11), FMAXV(V12, V13),
		FADDP2D(V14, V15), FADDPS(V16, V17), FSUB2D(V18, V19, V20), FMUL2D(V21, V22, V23),
		FMLA2D(V24, V25, V26), FMLS2D(V27, V28, V29), FCVTN(V30, V31), FCVTN2(V1, V2),
		FMLAElem(V8, V4, V0, 0), FMLAElem(V9, V5, V1, 1), FMLAElem(V30, V6, V31, 2), FMLAElem(V31, V7, V17, 3),
		FMULElem(V1, V2, V3, 3), FMULElem(V20, V21, V19, 2),
		SHL(V1, V2, 23), USHR(V3, V4, 16), USHR(V5, V6, 1), SSHR(V7, V8, 31), SSHR(V31, V30, 1), BIC(V29, V28, V27), XTN(V7, V8), XTN2(V9, V10),
		DUP(V11, V12, 3), DUP(V13, V14, 0), MOVI0(V15), CMHI(V16, V17, V18), MOV(V19, V20),
		STNPQ(V0, V1, 0, 0), STNPQ(V30, V31, 30, 1008), STNPQ(V6, V7, 3, 96), STNPQ(V17, V4, 21, -1024),
	}
}

// TestEncodingsMatchGNUAs assembles the GNU syntax of every encoding with
// GNU as for aarch64 and compares the words.
func TestEncodingsMatchGNUAs(t *testing.T) {
	as, err := exec.LookPath("aarch64-linux-gnu-as")
	if err != nil {
		t.Skip("aarch64-linux-gnu-as not installed (Debian: binutils-aarch64-linux-gnu)")
	}
	objcopy, err := exec.LookPath("aarch64-linux-gnu-objcopy")
	if err != nil {
		t.Skip("aarch64-linux-gnu-objcopy not installed")
	}
	lines := every()
	var src strings.Builder
	var want []uint32
	for _, l := range lines {
		w, gnu, ok := strings.Cut(strings.TrimPrefix(l, "WORD $"), " // ")
		if !ok {
			t.Fatalf("%q is not WORD $… // …", l)
		}
		v, err := strconv.ParseUint(w, 0, 32)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, uint32(v))
		src.WriteString(gnu + "\n")
	}
	dir := t.TempDir()
	s, o, bin := filepath.Join(dir, "x.s"), filepath.Join(dir, "x.o"), filepath.Join(dir, "x.bin")
	if err := os.WriteFile(s, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("as: %v\n%s", err, out)
	}
	if out, err := exec.Command(objcopy, "-O", "binary", "-j", ".text", o, bin).CombinedOutput(); err != nil {
		t.Fatalf("objcopy: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 4*len(want) {
		t.Fatalf("as wrote %d bytes for %d instructions", len(b), len(want))
	}
	for i, w := range want {
		if got := binary.LittleEndian.Uint32(b[4*i:]); got != w {
			t.Errorf("%s: as encodes 0x%08x", lines[i], got)
		}
	}
}
