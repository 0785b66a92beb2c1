package cublas_test

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// onFake runs fn with cuBLAS and the driver of the fake (an emulated GPU whose memory is its
// own), cuda:0's context current, a stream and a handle queuing on it.
func onFake(t *testing.T, fn func(d *driver.Driver, h *cublas.Handle, s uintptr, ctl *fakelib.Control) error) {
	t.Helper()
	dir := t.TempDir()
	l, ctl, err := fakelib.Load(dir, lib.CUBLAS)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cublas.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := (&lib.Finder{Getenv: fakelib.Env(dir)}).Open(lib.Driver)
	if err != nil {
		t.Fatal(err)
	}
	d, err := driver.LoadFrom(dl)
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := d.Device(0)
	ctx, err := d.PrimaryContext(dev)
	if err != nil {
		t.Fatal(err)
	}
	err = ctx.Do(func() error {
		s, err := d.StreamCreate()
		if err != nil {
			return err
		}
		h, err := c.Create()
		if err != nil {
			return err
		}
		if err := h.SetStream(s); err != nil {
			return err
		}
		return fn(d, h, s, ctl)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// upload copies a Go slice to new device memory.
func upload[T any](d *driver.Driver, s uintptr, v []T) (uintptr, error) {
	n := len(v) * int(unsafe.Sizeof(v[0]))
	p, err := d.MemAlloc(n)
	if err != nil {
		return 0, err
	}
	return p, d.CopyHtoD(p, unsafe.Pointer(&v[0]), n, s)
}

func download[T any](d *driver.Driver, s uintptr, p uintptr, n int) ([]T, error) {
	v := make([]T, n)
	if err := d.CopyDtoH(unsafe.Pointer(&v[0]), p, n*int(unsafe.Sizeof(v[0])), s); err != nil {
		return nil, err
	}
	return v, d.StreamSync(s)
}

// TestGemmsPassTheirArgumentsInOrder runs the three products on the fake cuBLAS, which computes
// them for real in device memory: a wrong argument order or width shows up as a wrong product,
// an error or a wrong log line.
func TestGemmsPassTheirArgumentsInOrder(t *testing.T) {
	onFake(t, func(d *driver.Driver, h *cublas.Handle, s uintptr, ctl *fakelib.Control) error {
		if err := h.SetTF32(true); err != nil {
			return err
		}
		// Column-major A (2×3), B (3×2): C = A·B.
		a, err := upload(d, s, []float32{1, 4, 2, 5, 3, 6})
		if err != nil {
			return err
		}
		b, err := upload(d, s, []float32{7, 9, 11, 8, 10, 12})
		if err != nil {
			return err
		}
		c, err := upload(d, s, []float32{-1, -1, -1, -1})
		if err != nil {
			return err
		}
		g := cublas.GemmBatch{TransA: cublas.OpN, TransB: cublas.OpN, M: 2, N: 2, K: 3, A: a, LDA: 2, B: b, LDB: 3, C: c, LDC: 2, Batch: 1, Alpha: 1}
		if err := h.Sgemm(g); err != nil {
			return err
		}
		if got, err := download[float32](d, s, c, 4); err != nil || !equal(got, []float32{58, 139, 64, 154}) {
			t.Errorf("Sgemm C = %v (%v), want [58 139 64 154]", got, err)
		}
		a64, _ := upload(d, s, []float64{1, 4, 2, 5, 3, 6})
		b64, _ := upload(d, s, []float64{7, 9, 11, 8, 10, 12})
		c64, err := upload(d, s, []float64{1, 1, 1, 1})
		if err != nil {
			return err
		}
		g.A, g.B, g.C, g.Alpha, g.Beta = a64, b64, c64, 2, 1
		if err := h.Dgemm(g); err != nil {
			return err
		}
		if got, err := download[float64](d, s, c64, 4); err != nil || got[0] != 117 || got[1] != 279 || got[2] != 129 || got[3] != 309 {
			t.Errorf("Dgemm C = %v (%v), want [117 279 129 309]", got, err)
		}
		// bfloat16 A and B (the high halves of these float32 values are exact), transposed A.
		abf, _ := upload(d, s, []uint16{0x3f80, 0x4000, 0x4040, 0x4080, 0x40a0, 0x40c0}) // 1..6, row-major 2×3 = column-major Aᵀ
		bbf, _ := upload(d, s, []uint16{0x40e0, 0x4110, 0x4130, 0x4100, 0x4120, 0x4140}) // 7 9 11 8 10 12
		g = cublas.GemmBatch{TransA: cublas.OpT, TransB: cublas.OpN, M: 2, N: 2, K: 3, A: abf, LDA: 3, B: bbf, LDB: 3, C: c, LDC: 2, Batch: 1, Alpha: 1,
			AType: cublas.R16BF, BType: cublas.R16BF, CType: cublas.R32F}
		if err := h.GemmEx(g); err != nil {
			return err
		}
		if got, err := download[float32](d, s, c, 4); err != nil || !equal(got, []float32{58, 139, 64, 154}) {
			t.Errorf("GemmEx C = %v (%v), want [58 139 64 154]", got, err)
		}
		log := ctl.Log()
		for _, want := range []string{"cublasSetMathMode 3", "compute=68 algo=-1", "types=14,14,0", "ta=1 tb=0 m=2 n=2 k=3"} {
			if !strings.Contains(log, want) {
				t.Errorf("log lacks %q:\n%s", want, log)
			}
		}
		return nil
	})
}

// TestTheFakeRejectsWhatCuBLASRejects pins the argument checks of the fake on which the
// backend's own are tested: invalid values are status 7, type combinations GemmEx does not run
// status 15, and an operand outside device memory a fault when the product runs.
func TestTheFakeRejectsWhatCuBLASRejects(t *testing.T) {
	onFake(t, func(d *driver.Driver, h *cublas.Handle, s uintptr, ctl *fakelib.Control) error {
		buf, err := upload(d, s, make([]float32, 64))
		if err != nil {
			return err
		}
		ok := cublas.GemmBatch{M: 4, N: 4, K: 4, A: buf, LDA: 4, B: buf, LDB: 4, C: buf, LDC: 4, Batch: 1, Alpha: 1}
		for _, c := range []struct {
			name   string
			edit   func(g *cublas.GemmBatch)
			ex     bool
			status int
		}{
			{"negative m", func(g *cublas.GemmBatch) { g.M = -1 }, false, 7},
			{"negative k", func(g *cublas.GemmBatch) { g.K = -2 }, false, 7},
			{"negative batch", func(g *cublas.GemmBatch) { g.Batch = -1 }, false, 7},
			{"lda below m", func(g *cublas.GemmBatch) { g.LDA = 3 }, false, 7},
			{"lda below k for Aᵀ", func(g *cublas.GemmBatch) { g.TransA, g.M, g.LDA = cublas.OpT, 2, 3 }, false, 7},
			{"ldb below n for Bᵀ", func(g *cublas.GemmBatch) { g.TransB, g.K, g.LDB = cublas.OpT, 2, 3 }, false, 7},
			{"ldc below m", func(g *cublas.GemmBatch) { g.LDC = 2 }, false, 7},
			{"lda 0 with m 0", func(g *cublas.GemmBatch) { g.M, g.LDA, g.LDC = 0, 0, 1 }, false, 7},
			{"transpose 5", func(g *cublas.GemmBatch) { g.TransA = 5 }, false, 7},
			{"bf16 A with f16 B", func(g *cublas.GemmBatch) { g.AType, g.BType, g.CType = cublas.R16BF, cublas.R16F, cublas.R32F }, true, 15},
			{"f32 A and B into bf16 C", func(g *cublas.GemmBatch) { g.AType, g.BType, g.CType = cublas.R32F, cublas.R32F, cublas.R16BF }, true, 15},
			{"unknown type 99", func(g *cublas.GemmBatch) { g.AType, g.BType, g.CType = 99, 99, cublas.R32F }, true, 7},
		} {
			g := ok
			g.AType, g.BType, g.CType = cublas.R16BF, cublas.R16BF, cublas.R32F
			c.edit(&g)
			var err error
			if c.ex {
				err = h.GemmEx(g)
			} else {
				err = h.Sgemm(g)
			}
			var be *cublas.Error
			if !errors.As(err, &be) || be.Status != c.status {
				t.Errorf("%s: %v, want status %d", c.name, err, c.status)
			}
		}
		// m = n = 0 with lda 1 is a valid empty product.
		empty := ok
		empty.M, empty.N, empty.LDA, empty.LDC = 0, 0, 1, 1
		if err := h.Sgemm(empty); err != nil {
			t.Errorf("empty product: %v", err)
		}
		// A reaches past its allocation: the product faults when it runs.
		over := ok
		over.LDA = 24 // the last column of A starts at element 72 of 64
		if err := h.Sgemm(over); err != nil {
			return err
		}
		err = d.StreamSync(s)
		if err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_ILLEGAL_ADDRESS") || !strings.Contains(err.Error(), "operand A") {
			t.Errorf("a product past the end of A: %v, want an illegal address naming A", err)
		}
		return nil
	})
}

func equal(a, b []float32) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
