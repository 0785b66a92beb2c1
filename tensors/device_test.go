package tensors

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/goaccel/goaccel/internal/backend"
	"github.com/goaccel/goaccel/internal/backend/cpu"
)

// countingBackend is a stand-in accelerator: host memory, CPU kernels, and a count of the
// kernels dispatched to it.
type countingBackend struct {
	*cpu.CPU
	gemms, binaries atomic.Int64
}

func (c *countingBackend) Name() string { return "fake" }

func (c *countingBackend) Gemm(lowp backend.DType, transA, transB bool, batch, m, n, k int, alpha float64,
	a *backend.Buffer, aOff, lda, strideA int, b *backend.Buffer, bOff, ldb, strideB int,
	beta float64, cb *backend.Buffer, cOff, ldc, strideC int) {
	c.gemms.Add(1)
	c.CPU.Gemm(lowp, transA, transB, batch, m, n, k, alpha, a, aOff, lda, strideA, b, bOff, ldb, strideB, beta, cb, cOff, ldc, strideC)
}

func (c *countingBackend) Binary(op backend.BinaryOp, dst *backend.Buffer, a, b backend.Strided, shape []int) {
	c.binaries.Add(1)
	c.CPU.Binary(op, dst, a, b, shape)
}

var fake = &countingBackend{CPU: cpu.New()}

func init() {
	backend.Register("fake", func(int) (backend.Backend, error) { return fake, nil })
}

// TestOpsDispatchToTheTensorsDevice pins the device abstraction: a tensor moved to another
// device runs its ops (forward and backward) on that device's backend, and gradients flow back
// across To.
func TestOpsDispatchToTheTensorsDevice(t *testing.T) {
	dev := Device{Type: "fake"}
	w := New([]float32{1, 2, 3, 4}, 2, 2).SetRequiresGrad(true)
	x := w.To(dev)
	if x.Device().String() != "fake:0" {
		t.Fatalf("device %s", x.Device())
	}
	g0, b0 := fake.gemms.Load(), fake.binaries.Load()
	loss := x.MatMul(x).Add(x).Sum()
	if loss.Device() != dev {
		t.Fatalf("result on %s, want %s", loss.Device(), dev)
	}
	loss.Backward()
	if fake.gemms.Load()-g0 < 3 || fake.binaries.Load() == b0 {
		t.Fatalf("fake backend ran %d gemms and %d binary kernels; ops did not dispatch on the device", fake.gemms.Load()-g0, fake.binaries.Load()-b0)
	}
	if w.Grad().Device() != CPU {
		t.Fatalf("gradient on %s, want cpu", w.Grad().Device())
	}
	ref := New([]float32{1, 2, 3, 4}, 2, 2).SetRequiresGrad(true)
	ref.MatMul(ref).Add(ref).Sum().Backward()
	if !slices.Equal(w.Grad().Float32s(), ref.Grad().Float32s()) {
		t.Fatalf("grad %v, cpu reference %v", w.Grad().Float32s(), ref.Grad().Float32s())
	}
	mustPanic(t, "operands on different devices (fake:0 and cpu)", func() { x.Add(w) })
}
