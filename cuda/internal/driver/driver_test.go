package driver_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/kernels"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

var (
	fakeOnce sync.Once
	fakeDir  string
	fakeCtl  *fakelib.Control
	fakeErr  error
)

// fake returns the fake driver library built once for this test binary.
func fake(t *testing.T) (*lib.Library, *fakelib.Control) {
	t.Helper()
	fakeOnce.Do(func() {
		fakeDir, fakeErr = osMkdirTemp()
		if fakeErr == nil {
			fakeErr = fakelib.Build(fakeDir)
		}
		if fakeErr == nil {
			fakeCtl, fakeErr = fakelib.Open(fakeDir)
		}
	})
	if fakeErr != nil {
		t.Fatal(fakeErr)
	}
	l, err := (&lib.Finder{Getenv: fakelib.Env(fakeDir)}).Open(lib.Driver)
	if err != nil {
		t.Fatal(err)
	}
	fakeCtl.Reset()
	fakeCtl.SetInitError(0)
	return l, fakeCtl
}

func TestInitFailureIsAnErrorWithTheDriversName(t *testing.T) {
	l, ctl := fake(t)
	ctl.SetInitError(100)
	_, err := driver.LoadFrom(l)
	var de *driver.Error
	if !errors.As(err, &de) || de.Code != 100 || err.Error() != "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" {
		t.Fatalf("LoadFrom with a failing cuInit = %v", err)
	}
}

func TestMemoryCopiesAndMemsetsPassTheirArguments(t *testing.T) {
	l, ctl := fake(t)
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	if d.Version != 13000 {
		t.Fatalf("driver version %d", d.Version)
	}
	dev, _ := d.Device(1)
	if name, _ := d.Name(dev); name != "Emulated GPU 1" {
		t.Fatalf("name %q", name)
	}
	if cc, _ := d.Attribute(dev, driver.AttrComputeCapabilityMajor); cc != 9 {
		t.Fatalf("compute capability %d", cc)
	}
	ctx, err := d.PrimaryContext(dev)
	if err != nil {
		t.Fatal(err)
	}
	err = ctx.Do(func() error {
		s, err := d.StreamCreate()
		if err != nil {
			return err
		}
		p, err := d.MemAlloc(40)
		if err != nil {
			return err
		}
		src := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		if err := d.CopyHtoD(p, unsafe.Pointer(&src[0]), 40, s); err != nil {
			return err
		}
		if err := d.Memset32(p+8, math.Float32bits(-1), 2, s); err != nil {
			return err
		}
		if err := d.Memset16(p+36, 0x4000, 1, s); err != nil {
			return err
		}
		dst := make([]float32, 10)
		if err := d.CopyDtoH(unsafe.Pointer(&dst[0]), p, 40, s); err != nil {
			return err
		}
		if err := d.StreamSync(s); err != nil {
			return err
		}
		hi := math.Float32frombits(math.Float32bits(10)&^0xffff | 0x4000) // little endian: the low half
		want := []float32{1, 2, -1, -1, 5, 6, 7, 8, 9, hi}
		for i := range want {
			if dst[i] != want[i] {
				return fmt.Errorf("copied back %v, want %v", dst, want)
			}
		}
		// Device memory is the driver's own: a copy past the end of an allocation is refused.
		var de *driver.Error
		if err := d.CopyDtoH(unsafe.Pointer(&dst[0]), p+4, 40, s); !errors.As(err, &de) || de.Code != 1 || !strings.Contains(err.Error(), "4 bytes past the end of the 40-byte allocation") {
			return fmt.Errorf("a copy past the end of the allocation: %v", err)
		}
		if err := d.Memset32(uintptr(unsafe.Pointer(&dst[0])), 0, 1, s); !errors.As(err, &de) || !strings.Contains(err.Error(), "is not device memory") {
			return fmt.Errorf("a memset of host memory: %v", err)
		}
		if err := d.StreamDestroy(s); err != nil {
			return err
		}
		return d.MemFree(p)
	})
	if err != nil {
		t.Fatal(err)
	}
	log := ctl.Log()
	for _, want := range []string{"cuDevicePrimaryCtxRetain 11", "cuMemAlloc_v2 40", "cuMemsetD32Async 3212836864 2", "cuMemsetD16Async 16384 1", "cuMemcpyDtoHAsync_v2 40"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestLaunchRunsTheKernelWithItsParameters launches goaccel's fill_8 through the bindings on
// the emulated device: the parameters arrive as the PTX declares them and the kernel runs.
func TestLaunchRunsTheKernelWithItsParameters(t *testing.T) {
	l, ctl := fake(t)
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := d.Device(0)
	ctx, err := d.PrimaryContext(dev)
	if err != nil {
		t.Fatal(err)
	}
	err = ctx.Do(func() error {
		m, err := d.ModuleLoad(kernels.PTX)
		if err != nil {
			return err
		}
		if _, err := d.Function(m, "axpy_f32"); err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_NOT_FOUND") {
			return fmt.Errorf("a kernel the module lacks: %v", err)
		}
		f, err := d.Function(m, "fill_8")
		if err != nil {
			return err
		}
		s, err := d.StreamCreate()
		if err != nil {
			return err
		}
		p, err := d.MemAlloc(8 * 1000)
		if err != nil {
			return err
		}
		v, n := uint64(0x1122334455667788), int64(999) // the last word keeps its poison
		ctl.SetLaunchParams(3)
		defer ctl.SetLaunchParams(0)
		params := []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&v), unsafe.Pointer(&n)}
		if err := d.Launch(f, [3]uint32{2, 1, 1}, [3]uint32{256, 1, 1}, 64, s, params); err != nil {
			return err
		}
		got := make([]uint64, 1000)
		if err := d.CopyDtoH(unsafe.Pointer(&got[0]), p, 8000, s); err != nil {
			return err
		}
		if err := d.StreamSync(s); err != nil {
			return err
		}
		if got[0] != v || got[998] != v || got[999] != ^uint64(0) {
			return fmt.Errorf("after fill_8: words 0, 998, 999 = %#x %#x %#x", got[0], got[998], got[999])
		}
		want := fmt.Sprintf("cuLaunchKernel fill_8 grid=2,1,1 block=256,1,1 shared=64 p0=%x p1=1122334455667788 p2=3e7", p)
		if log := ctl.Log(); !strings.Contains(log, want) {
			return fmt.Errorf("log\n%s\nlacks %q", log, want)
		}
		return d.MemFree(p)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAKernelGivenHostMemoryFails launches fill_8 on a Go slice: the emulated GPU's memory is
// its own, so the launch fails as a GPU's would (an illegal address, reported when the stream is
// synchronised) instead of writing the slice. The error is sticky: the test has a fake of its own.
func TestAKernelGivenHostMemoryFails(t *testing.T) {
	dir := t.TempDir()
	if err := fakelib.Build(dir); err != nil {
		t.Fatal(err)
	}
	l, err := (&lib.Finder{Getenv: fakelib.Env(dir)}).Open(lib.Driver)
	if err != nil {
		t.Fatal(err)
	}
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := d.Device(0)
	ctx, err := d.PrimaryContext(dev)
	if err != nil {
		t.Fatal(err)
	}
	host := make([]uint64, 16)
	err = ctx.Do(func() error {
		m, err := d.ModuleLoad(kernels.PTX)
		if err != nil {
			return err
		}
		f, err := d.Function(m, "fill_8")
		if err != nil {
			return err
		}
		s, err := d.StreamCreate()
		if err != nil {
			return err
		}
		p, v, n := uintptr(unsafe.Pointer(&host[0])), uint64(7), int64(16)
		if err := d.Launch(f, [3]uint32{1, 1, 1}, [3]uint32{256, 1, 1}, 0, s, []unsafe.Pointer{unsafe.Pointer(&p), unsafe.Pointer(&v), unsafe.Pointer(&n)}); err != nil {
			return err
		}
		return d.StreamSync(s)
	})
	if err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_ILLEGAL_ADDRESS") || !strings.Contains(err.Error(), "not device memory") || host[0] != 0 {
		t.Fatalf("fill_8 on host memory: %v (host[0] = %d)", err, host[0])
	}
}

func TestAModuleThatFailsToCompileReturnsTheJITLog(t *testing.T) {
	l, _ := fake(t)
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	dev, _ := d.Device(0)
	ctx, err := d.PrimaryContext(dev)
	if err != nil {
		t.Fatal(err)
	}
	err = ctx.Do(func() error {
		_, err := d.ModuleLoad([]byte("this is not PTX"))
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_INVALID_PTX") || !strings.Contains(err.Error(), ": ptxas application ptx input, line 1; fatal   : Missing .version directive") {
		t.Fatalf("ModuleLoad of bad PTX = %v", err)
	}
}

// TestTheJITLogBufferIsHeapMemory checks, with the compiler's escape analysis, that the log
// buffer whose address ModuleLoad hides in the JIT option values is not on the goroutine's
// stack (where nothing would keep it put for the driver): it must be pinned heap memory.
func TestTheJITLogBufferIsHeapMemory(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to run the escape analysis")
	}
	src, err := os.ReadFile("driver.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "logBuf := make(") {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("driver.go has no `logBuf := make(`: update this test")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	at := fmt.Sprintf("driver.go:%d:", line)
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, at) && strings.Contains(l, "make(") {
			if !strings.Contains(l, "escapes to heap") {
				t.Fatalf("the JIT log buffer is not heap memory: %s", l)
			}
			return
		}
	}
	t.Fatalf("the compiler says nothing about the make at %s:\n%s", at, out)
}

// TestTheInstalledDriverWithoutAGPUFailsCleanly loads the real libcuda.so.1 when the machine
// has one (Debian's libcuda1 comes with the toolkit): on a machine without a GPU, cuInit must
// fail with an error, not crash.
func TestTheInstalledDriverWithoutAGPUFailsCleanly(t *testing.T) {
	d, err := driver.Load()
	if errors.Is(err, lib.ErrNotFound) {
		t.Skip("no libcuda.so.1 on this machine")
	}
	if err == nil {
		n, _ := d.DeviceCount()
		t.Skipf("this machine has a working driver (%d devices)", n)
	}
	var de *driver.Error
	if !errors.As(err, &de) {
		t.Fatalf("Load = %v, want a driver error", err)
	}
	t.Logf("without a GPU: %v", err)
}

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "fakecuda") }

func TestMain(m *testing.M) {
	code := m.Run()
	if fakeDir != "" {
		os.RemoveAll(fakeDir)
	}
	os.Exit(code)
}
