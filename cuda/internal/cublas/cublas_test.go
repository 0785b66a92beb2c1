package cublas_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// TestGemmsPassTheirArgumentsInOrder runs the three products on the fake cuBLAS, whose "device"
// memory is host memory and whose gemm is a naive column-major loop: a wrong argument order or
// width shows up as a wrong product or a wrong log line.
func TestGemmsPassTheirArgumentsInOrder(t *testing.T) {
	l, ctl, err := fakelib.Load(t.TempDir(), lib.CUBLAS)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cublas.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Create()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SetTF32(true); err != nil {
		t.Fatal(err)
	}
	// Column-major A (2×3), B (3×2): C = A·B.
	a := []float32{1, 4, 2, 5, 3, 6}
	b := []float32{7, 9, 11, 8, 10, 12}
	cm := make([]float32, 4)
	g := cublas.GemmBatch{TransA: cublas.OpN, TransB: cublas.OpN, M: 2, N: 2, K: 3,
		A: uintptr(unsafe.Pointer(&a[0])), LDA: 2, B: uintptr(unsafe.Pointer(&b[0])), LDB: 3,
		C: uintptr(unsafe.Pointer(&cm[0])), LDC: 2, Batch: 1, Alpha: 1}
	if err := h.Sgemm(g); err != nil {
		t.Fatal(err)
	}
	if want := []float32{58, 139, 64, 154}; !equal(cm, want) {
		t.Fatalf("Sgemm C = %v, want %v", cm, want)
	}
	a64, b64, c64 := []float64{1, 4, 2, 5, 3, 6}, []float64{7, 9, 11, 8, 10, 12}, []float64{1, 1, 1, 1}
	g.A, g.B, g.C, g.Alpha, g.Beta = uintptr(unsafe.Pointer(&a64[0])), uintptr(unsafe.Pointer(&b64[0])), uintptr(unsafe.Pointer(&c64[0])), 2, 1
	if err := h.Dgemm(g); err != nil {
		t.Fatal(err)
	}
	if want := []float64{117, 279, 129, 309}; c64[0] != want[0] || c64[3] != want[3] {
		t.Fatalf("Dgemm C = %v, want %v", c64, want)
	}
	// bfloat16 A and B (the high halves of these float32 values are exact), transposed A.
	abf := []uint16{0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0} // 1..6, row-major 2×3 = column-major Aᵀ
	bbf := []uint16{0x40e0, 0x4110, 0x4130, 0x4100, 0x4120, 0x4140} // 7 9 11 8 10 12
	cm = make([]float32, 4)
	g = cublas.GemmBatch{TransA: cublas.OpT, TransB: cublas.OpN, M: 2, N: 2, K: 3,
		A: uintptr(unsafe.Pointer(&abf[0])), LDA: 3, B: uintptr(unsafe.Pointer(&bbf[0])), LDB: 3,
		C: uintptr(unsafe.Pointer(&cm[0])), LDC: 2, Batch: 1, Alpha: 1, AType: cublas.R16BF, BType: cublas.R16BF, CType: cublas.R32F}
	if err := h.GemmEx(g); err != nil {
		t.Fatal(err)
	}
	if want := []float32{58, 139, 64, 154}; !equal(cm, want) {
		t.Fatalf("GemmEx C = %v, want %v", cm, want)
	}
	log := ctl.Log()
	for _, want := range []string{"cublasSetMathMode 3", "compute=68 algo=-1", "types=14,14,0", "ta=1 tb=0 m=2 n=2 k=3"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func equal(a, b []float32) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
