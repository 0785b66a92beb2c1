package cuda_test

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/cuda"
	"github.com/goaccel/goaccel/cuda/internal/device"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tensors/backend"
)

// The tests here see the emulated GPUs of package fakelib (goaccel's kernels run on the CPU,
// cuBLAS computes real products): they pin registration, devices, transfers, products and the
// memory counters through package tensors' own API.

var ctl *fakelib.Control

func TestMain(m *testing.M) { fakelib.Main(m, &ctl) }

// TestDroppedDeviceTemporariesAreRecycled is the 10,000-iteration loop of 4 MB temporaries,
// dropped without Release, on the fake GPU through package tensors: the dropped buffers come back
// to the caching allocator (the device's pacer makes the collector run), so the driver is asked
// for memory only until the pacer's budget is in use, never once per temporary.
func TestDroppedDeviceTemporariesAreRecycled(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 iterations")
	}
	dev := tensors.CUDA(0)
	x, y := tensors.Randn(1024, 1024).To(dev), tensors.Randn(1024, 1024).To(dev)
	backend.Collect()
	if err := cuda.ResetPeakMemoryStats(0); err != nil {
		t.Fatal(err)
	}
	start, _ := cuda.MemoryAllocated(0)
	raw := 0
	ctl.Reset()
	for i := range 10000 {
		_ = x.Add(y)
		if i%100 == 99 { // the fake's log is bounded: count and clear it as the loop goes
			raw += strings.Count(ctl.Log(), "cuMemAlloc_v2")
			ctl.Reset()
		}
	}
	// The budget of device memory is at most 4 GiB (a quarter of the device, capped): 1024
	// blocks of 4 MB, and a few for the collections' timing.
	if raw > 1100 {
		t.Fatalf("%d device allocations for 10,000 dropped 4 MB temporaries: they were not recycled", raw)
	}
	// The memory in use stays within two of the pacer's largest budgets of the start (dropped
	// buffers come back when a collection's cleanups run, some after the pacer has gone on; the
	// budget grows while collections are slow against the work between them, as they are when
	// the emulated GPU's kernels take the host's cores).
	d, err := device.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	peak, _ := cuda.MaxMemoryAllocated(0)
	if _, most := d.Pacer().Bounds(); peak-start > 2*most {
		t.Fatalf("device memory in use peaked %d MiB over the start: more than twice the pacer's largest budget (%d MiB)", (peak-start)>>20, most>>20)
	}
	t.Logf("%d device allocations for 10,000 temporaries of 4 MB; memory in use peaked %d MiB over the start", raw, (peak-start)>>20)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
}

func TestTensorsSeeTheGPUsAndMoveDataToThem(t *testing.T) {
	if n := tensors.DeviceCount("cuda"); n != 2 || cuda.DeviceCount() != 2 || cuda.Err() != nil {
		t.Fatalf("DeviceCount = %d (%v), want the fake's 2", n, cuda.Err())
	}
	dev := tensors.CUDA(1)
	x := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3).To(dev)
	if x.Device() != dev || x.Device().String() != "cuda:1" {
		t.Fatalf("tensor on %s", x.Device())
	}
	if got := x.Float32s(); got[5] != 6 {
		t.Fatalf("round trip %v", got)
	}
	w := tensors.New([]float32{1, 0, -1, 2, 1, 0}, 3, 2)
	got := x.MatMul(w.To(dev))
	want := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3).MatMul(w)
	if got.Device() != dev {
		t.Fatalf("product on %s", got.Device())
	}
	for i, v := range want.Float32s() {
		if g := got.Float32s()[i]; math.Abs(float64(g-v)) > 1e-6 {
			t.Fatalf("product %v, CPU %v", got.Float32s(), want.Float32s())
		}
	}
	// A transposed operand is handed to cuBLAS as such, without a copy kernel.
	tt := w.To(dev).T().MatMul(x.T())
	if v := tt.Float32s(); v[0] != w.T().MatMul(tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3).T()).Float32s()[0] {
		t.Fatalf("transposed product %v", v)
	}
	defer func() {
		if msg, _ := recover().(string); msg == "" {
			t.Fatal("cuda:5 on a two-GPU machine did not panic")
		}
	}()
	tensors.Ones(1).To(tensors.CUDA(5))
}

func TestMemoryAllocatedCountsLiveTensors(t *testing.T) {
	before, err := cuda.MemoryAllocated(0)
	if err != nil {
		t.Fatal(err)
	}
	x := tensors.Zeros(1000).To(tensors.CUDA(0))
	during, _ := cuda.MemoryAllocated(0)
	reserved, _ := cuda.MemoryReserved(0)
	x.Release()
	after, _ := cuda.MemoryAllocated(0)
	if during-before != 4096 || after != before || reserved < during {
		t.Fatalf("allocated %d, %d with a 4000-byte tensor (4096 rounded), %d after its release; reserved %d", before, during, after, reserved)
	}
	if _, err := cuda.MemoryAllocated(7); err == nil {
		t.Fatal("no error for cuda:7 on a two-GPU machine")
	}
}

// TestMaxMemoryAllocatedIsThePeakSinceReset: the peak counts a tensor after its release, and a
// reset starts it again from what is in use. (The device's memory is settled first: buffers
// other tests dropped come back when their cleanups run.)
func TestMaxMemoryAllocatedIsThePeakSinceReset(t *testing.T) {
	backend.Collect()
	if err := cuda.ResetPeakMemoryStats(0); err != nil {
		t.Fatal(err)
	}
	start, _ := cuda.MemoryAllocated(0)
	x := tensors.Zeros(1 << 20).To(tensors.CUDA(0)) // 4 MiB
	x.Release()
	peak, err := cuda.MaxMemoryAllocated(0)
	if err != nil || peak != start+4<<20 {
		t.Fatalf("MaxMemoryAllocated = %d, %v; want %d (4 MiB over the start)", peak, err, start+4<<20)
	}
	if err := cuda.ResetPeakMemoryStats(0); err != nil {
		t.Fatal(err)
	}
	if peak, _ := cuda.MaxMemoryAllocated(0); peak != start {
		t.Fatalf("after the reset MaxMemoryAllocated = %d, want what is in use (%d)", peak, start)
	}
	if _, err := cuda.MaxMemoryAllocated(7); err == nil {
		t.Fatal("no error for cuda:7 on a two-GPU machine")
	}
	if err := cuda.ResetPeakMemoryStats(7); err == nil {
		t.Fatal("no error for cuda:7 on a two-GPU machine")
	}
}

// TestAFullDevicePanicsWithErrOutOfMemory asks the emulated GPU (8 GiB) for a 16 GiB result:
// the op panics with an error that wraps tensors.ErrOutOfMemory and names the device, which
// accelerate.FindExecutableBatchSize recognises.
func TestAFullDevicePanicsWithErrOutOfMemory(t *testing.T) {
	dev := tensors.CUDA(0)
	col, row := tensors.Zeros(1<<16, 1).To(dev), tensors.Zeros(1, 1<<16).To(dev)
	defer func() {
		err, ok := recover().(error)
		if !ok || !errors.Is(err, tensors.ErrOutOfMemory) || !strings.Contains(err.Error(), "cuda:0") {
			t.Fatalf("panic %v (%T); want an error wrapping tensors.ErrOutOfMemory", err, err)
		}
	}()
	col.Add(row)
	t.Fatal("a 16 GiB result on an 8 GiB device did not panic")
}
