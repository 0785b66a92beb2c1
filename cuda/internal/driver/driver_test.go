package driver_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
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
	if !errors.As(err, &de) || de.Code != 100 || err.Error() != "cuInit: CUDA_ERROR_FAKE_100 (a fake error)" {
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
	if name, _ := d.Name(dev); name != "Fake GPU 11" {
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
		p, err := d.MemAlloc(40)
		if err != nil {
			return err
		}
		src := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		if err := d.CopyHtoD(p, unsafe.Pointer(&src[0]), 40, 5); err != nil {
			return err
		}
		if err := d.Memset32(p+8, math.Float32bits(-1), 2, 5); err != nil {
			return err
		}
		if err := d.Memset16(p+36, 0x4000, 1, 5); err != nil {
			return err
		}
		dst := make([]float32, 10)
		if err := d.CopyDtoH(unsafe.Pointer(&dst[0]), p, 40, 5); err != nil {
			return err
		}
		if err := d.StreamSync(5); err != nil {
			return err
		}
		hi := math.Float32frombits(math.Float32bits(10)&^0xffff | 0x4000) // little endian: the low half
		want := []float32{1, 2, -1, -1, 5, 6, 7, 8, 9, hi}
		for i := range want {
			if dst[i] != want[i] {
				return fmt.Errorf("copied back %v, want %v", dst, want)
			}
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

func TestLaunchPassesGridAndKernelParameters(t *testing.T) {
	l, ctl := fake(t)
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.ModuleLoad([]byte(".version 8.0\n.target sm_80\n"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := d.Function(m, "axpy_f32")
	if err != nil {
		t.Fatal(err)
	}
	ptr, n := uintptr(0xdeadbeef00), int64(12345)
	a := struct {
		F float32
		_ uint32 // the fake logs 8 bytes per parameter
	}{F: 2.5}
	shape := struct{ N [2]int64 }{[2]int64{7, 9}}
	ctl.SetLaunchParams(4)
	params := []unsafe.Pointer{unsafe.Pointer(&ptr), unsafe.Pointer(&n), unsafe.Pointer(&a), unsafe.Pointer(&shape)}
	if err := d.Launch(f, [3]uint32{40, 2, 1}, [3]uint32{256, 1, 1}, 64, 5, params); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("cuLaunchKernel axpy_f32 grid=40,2,1 block=256,1,1 shared=64 p0=deadbeef00 p1=3039 p2=%x p3=7", math.Float32bits(a.F))
	if log := ctl.Log(); !strings.Contains(log, want) {
		t.Fatalf("log\n%s\nlacks %q", log, want)
	}
}

func TestAModuleThatFailsToCompileReturnsTheJITLog(t *testing.T) {
	l, _ := fake(t)
	d, err := driver.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ModuleLoad([]byte("FAKE_JIT_ERROR"))
	if err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_FAKE_218") || !strings.Contains(err.Error(), "ptxas fatal: fake syntax error") {
		t.Fatalf("ModuleLoad of bad PTX = %v", err)
	}
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
