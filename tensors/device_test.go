package tensors

import (
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
	"github.com/goaccel/goaccel/tensors/backend/sim"
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
	backend.Register("fake", func(int) (backend.Core, error) { return fake, nil }, func() int { return 1 })
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

var simDev = Device{Type: "sim"}

// TestDeviceTensorsKeepTheirMemoryOnTheDevice pins the boundary: a tensor on the strict
// simulated device has no host storage (Data32 refuses it), moving it costs exactly one transfer
// each way, and a result stays on the operands' device.
func TestDeviceTensorsKeepTheirMemoryOnTheDevice(t *testing.T) {
	s := sim.Lookup("sim", 0)
	before := s.Stats()
	x := New([]float32{1, 2, 3, 4}, 2, 2).To(simDev)
	y := x.MatMul(x).Add(x).Exp().Sum()
	if y.Device() != simDev {
		t.Fatalf("result on %s", y.Device())
	}
	mid := s.Stats()
	if mid.Uploads-before.Uploads != 1 || mid.Downloads != before.Downloads {
		t.Fatalf("ops moved data: %d uploads, %d downloads; want 1 and 0", mid.Uploads-before.Uploads, mid.Downloads-before.Downloads)
	}
	if got := y.Item(); math.Abs(got-float64(cpuExpSum())) > 1e-3*math.Abs(got) {
		t.Fatalf("sum %v", got)
	}
	if s.Stats().Downloads-mid.Downloads != 1 {
		t.Fatalf("Item downloaded %d times", s.Stats().Downloads-mid.Downloads)
	}
	mustPanic(t, "Data32: need a contiguous float32 cpu tensor", func() { x.Data32() })
	mustPanic(t, "Data64", func() { x.AsType(Float64).Data64() })
	mustPanic(t, "operands on different devices (sim:0 and cpu)", func() { x.Add(Ones(2, 2)) })
}

// cpuExpSum is exp(x·x + x) summed for x = [[1 2] [3 4]], computed on the CPU.
func cpuExpSum() float32 {
	x := New([]float32{1, 2, 3, 4}, 2, 2)
	return float32(x.MatMul(x).Add(x).Exp().Sum().Item())
}

func TestMoveToMovesALeafAndItsGradientInPlace(t *testing.T) {
	p := New([]float32{1, 2}, 2).SetRequiresGrad(true)
	p.MulScalar(3).Sum().Backward()
	p.MoveTo(simDev)
	if p.Device() != simDev || p.Grad().Device() != simDev || !p.RequiresGrad() {
		t.Fatalf("after MoveTo: tensor on %s, grad on %s, requires grad %v", p.Device(), p.Grad().Device(), p.RequiresGrad())
	}
	p.MulScalar(2).Sum().Backward()
	if got := p.Grad().Float32s(); !slices.Equal(got, []float32{5, 5}) {
		t.Fatalf("accumulated grad on the device %v, want [5 5]", got)
	}
	p.MoveTo(CPU)
	if got := p.Float32s(); p.Device() != CPU || !slices.Equal(got, []float32{1, 2}) {
		t.Fatalf("back on %s with %v", p.Device(), got)
	}
	mustPanic(t, "only leaf tensors move in place", func() { p.MulScalar(1).MoveTo(simDev) })
}

func TestCopyFromAndFillCrossDevices(t *testing.T) {
	d := Zeros(2, 3).To(simDev)
	d.CopyFrom(Arange(0, 6, 1).Reshape(2, 3))
	d.Slice(1, 0, 1).Fill(-1)
	host := Zeros(2, 3)
	host.CopyFrom(d)
	if got := host.Float32s(); !slices.Equal(got, []float32{-1, 1, 2, -1, 4, 5}) {
		t.Fatalf("got %v", got)
	}
	if got := d.To(Device{Type: "simfused"}).To(CPU).Float32s(); !slices.Equal(got, host.Float32s()) {
		t.Fatalf("device to device: %v", got)
	}
}

func TestOpsRefuseOperandsOnAnotherDevice(t *testing.T) {
	x := Ones(2, 3).To(simDev)
	for name, fn := range map[string]func(){
		"Linear":       func() { Linear(x, Ones(4, 3).To(simDev), Zeros(4)) },
		"IndexSelect":  func() { x.IndexSelect(0, FromInt64([]int64{0}, 1)) },
		"Gather":       func() { x.Gather(1, FromInt64([]int64{0, 0}, 2, 1)) },
		"Cat":          func() { Cat([]*Tensor{x, Ones(2, 3)}, 0) },
		"CrossEntropy": func() { CrossEntropy(x, FromInt64([]int64{0, 1}, 2)) },
		"LayerNorm":    func() { LayerNorm(x, []int{3}, Ones(3), nil, 1e-5) },
		"Conv2d":       func() { Conv2d(Ones(1, 1, 3, 3).To(simDev), Ones(1, 1, 2, 2).To(simDev), Zeros(1), 1, 0) },
	} {
		t.Run(name, func(t *testing.T) {
			mustPanic(t, name+": operands on different devices (sim:0 and cpu)", fn)
		})
	}
}
