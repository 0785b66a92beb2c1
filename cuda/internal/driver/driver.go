package driver

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// funcs holds the addresses of the driver entry points goaccel uses.
type funcs struct {
	Init               uintptr `sym:"cuInit"`
	DriverGetVersion   uintptr `sym:"cuDriverGetVersion"`
	GetErrorName       uintptr `sym:"cuGetErrorName"`
	GetErrorString     uintptr `sym:"cuGetErrorString"`
	DeviceGetCount     uintptr `sym:"cuDeviceGetCount"`
	DeviceGet          uintptr `sym:"cuDeviceGet"`
	DeviceGetName      uintptr `sym:"cuDeviceGetName"`
	DeviceTotalMem     uintptr `sym:"cuDeviceTotalMem_v2"`
	DeviceGetAttribute uintptr `sym:"cuDeviceGetAttribute"`
	PrimaryCtxRetain   uintptr `sym:"cuDevicePrimaryCtxRetain"`
	PrimaryCtxRelease  uintptr `sym:"cuDevicePrimaryCtxRelease_v2,cuDevicePrimaryCtxRelease"`
	CtxSetCurrent      uintptr `sym:"cuCtxSetCurrent"`
	CtxSynchronize     uintptr `sym:"cuCtxSynchronize"`
	MemAlloc           uintptr `sym:"cuMemAlloc_v2"`
	MemFree            uintptr `sym:"cuMemFree_v2"`
	MemGetInfo         uintptr `sym:"cuMemGetInfo_v2"`
	MemcpyHtoDAsync    uintptr `sym:"cuMemcpyHtoDAsync_v2"`
	MemcpyDtoHAsync    uintptr `sym:"cuMemcpyDtoHAsync_v2"`
	MemcpyDtoDAsync    uintptr `sym:"cuMemcpyDtoDAsync_v2"`
	MemsetD16Async     uintptr `sym:"cuMemsetD16Async"`
	MemsetD32Async     uintptr `sym:"cuMemsetD32Async"`
	StreamCreate       uintptr `sym:"cuStreamCreate"`
	StreamSynchronize  uintptr `sym:"cuStreamSynchronize"`
	StreamDestroy      uintptr `sym:"cuStreamDestroy_v2"`
	StreamWaitEvent    uintptr `sym:"cuStreamWaitEvent"`
	EventCreate        uintptr `sym:"cuEventCreate"`
	EventRecord        uintptr `sym:"cuEventRecord"`
	EventSynchronize   uintptr `sym:"cuEventSynchronize"`
	EventElapsedTime   uintptr `sym:"cuEventElapsedTime_v2,cuEventElapsedTime"`
	EventDestroy       uintptr `sym:"cuEventDestroy_v2"`
	ModuleLoadDataEx   uintptr `sym:"cuModuleLoadDataEx"`
	ModuleGetFunction  uintptr `sym:"cuModuleGetFunction"`
	LaunchKernel       uintptr `sym:"cuLaunchKernel"`
}

// Driver is the loaded, initialised driver.
type Driver struct {
	Lib     *lib.Library
	f       funcs
	Version int // e.g. 13000 for CUDA 13.0
}

// Error is a failed driver call.
type Error struct {
	Call string
	Code int
	Name string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	Msg  string
}

func (e *Error) Error() string {
	if e.Msg != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Call, e.Name, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Call, e.Name)
}

// Error codes callers branch on.
const (
	ErrorOutOfMemory = 2
	ErrorNoDevice    = 100
)

// Load opens libcuda.so.1, binds its entry points and initialises the driver.
func Load() (*Driver, error) {
	l, err := lib.Open(lib.Driver)
	if err != nil {
		return nil, err
	}
	return LoadFrom(l)
}

// LoadFrom binds and initialises the driver in an opened library.
func LoadFrom(l *lib.Library) (*Driver, error) {
	d := &Driver{Lib: l}
	if err := l.Bind(&d.f); err != nil {
		return nil, err
	}
	if err := d.call("cuInit", d.f.Init, 0); err != nil {
		return nil, err
	}
	var v int32
	if err := d.call("cuDriverGetVersion", d.f.DriverGetVersion, uintptr(unsafe.Pointer(&v))); err != nil {
		return nil, err
	}
	d.Version = int(v)
	return d, nil
}

// call runs one driver entry point and turns a CUresult into an error. Its arguments may be
// pointers converted to uintptr in the call expression: uintptrescapes moves what they point to
// to the heap and keeps it alive, as for purego.SyscallN (a stack variable's address would go
// stale if the stack moved on the way to C).
//
//go:uintptrescapes
func (d *Driver) call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if code := int32(r); code != 0 {
		return d.errorOf(name, int(code))
	}
	return nil
}

func (d *Driver) errorOf(call string, code int) error {
	e := &Error{Call: call, Code: code, Name: fmt.Sprintf("CUresult %d", code)}
	var p *byte // the driver stores a pointer to its own static string here
	if r, _, _ := purego.SyscallN(d.f.GetErrorName, uintptr(code), uintptr(unsafe.Pointer(&p))); r == 0 && p != nil {
		e.Name = lib.CString(p, 4096)
	}
	p = nil
	if r, _, _ := purego.SyscallN(d.f.GetErrorString, uintptr(code), uintptr(unsafe.Pointer(&p))); r == 0 && p != nil {
		e.Msg = lib.CString(p, 4096)
	}
	return e
}

// DeviceCount returns the number of CUDA devices.
func (d *Driver) DeviceCount() (int, error) {
	var n int32
	err := d.call("cuDeviceGetCount", d.f.DeviceGetCount, uintptr(unsafe.Pointer(&n)))
	return int(n), err
}

// Device is a device ordinal's handle.
type Device int32

// Device returns the handle of device ordinal i.
func (d *Driver) Device(i int) (Device, error) {
	var dev int32
	err := d.call("cuDeviceGet", d.f.DeviceGet, uintptr(unsafe.Pointer(&dev)), uintptr(i))
	return Device(dev), err
}

// Name returns the device's product name.
func (d *Driver) Name(dev Device) (string, error) {
	buf := make([]byte, 256)
	if err := d.call("cuDeviceGetName", d.f.DeviceGetName, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(dev)); err != nil {
		return "", err
	}
	return lib.CString(&buf[0], len(buf)), nil
}

// TotalMem returns the device's memory in bytes.
func (d *Driver) TotalMem(dev Device) (uint64, error) {
	var n uint64
	err := d.call("cuDeviceTotalMem_v2", d.f.DeviceTotalMem, uintptr(unsafe.Pointer(&n)), uintptr(dev))
	return n, err
}

// Device attributes.
const (
	AttrMultiprocessorCount    = 16
	AttrComputeCapabilityMajor = 75
	AttrComputeCapabilityMinor = 76
)

// Attribute returns a device attribute.
func (d *Driver) Attribute(dev Device, attr int) (int, error) {
	var v int32
	err := d.call("cuDeviceGetAttribute", d.f.DeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(attr), uintptr(dev))
	return int(v), err
}

// Context is a device's primary context.
type Context struct {
	d   *Driver
	Dev Device
	ctx uintptr
}

// PrimaryContext retains the device's primary context (the one the CUDA runtime, and so
// PyTorch, shares).
func (d *Driver) PrimaryContext(dev Device) (*Context, error) {
	c := &Context{d: d, Dev: dev}
	if err := d.call("cuDevicePrimaryCtxRetain", d.f.PrimaryCtxRetain, uintptr(unsafe.Pointer(&c.ctx)), uintptr(dev)); err != nil {
		return nil, err
	}
	return c, nil
}

// Do runs fn with the context current on the calling goroutine's OS thread, which it keeps for
// the duration (the driver's current context is per thread, and Go moves goroutines between
// threads).
func (c *Context) Do(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := c.d.call("cuCtxSetCurrent", c.d.f.CtxSetCurrent, c.ctx); err != nil {
		return err
	}
	return fn()
}

// Driver returns the driver the context belongs to.
func (c *Context) Driver() *Driver { return c.d }

// Release releases the primary context.
func (c *Context) Release() error {
	return c.d.call("cuDevicePrimaryCtxRelease", c.d.f.PrimaryCtxRelease, uintptr(c.Dev))
}

// The calls below need the context current (inside Context.Do).

// Synchronize waits for all work of the current context.
func (d *Driver) Synchronize() error { return d.call("cuCtxSynchronize", d.f.CtxSynchronize) }

// MemAlloc allocates device memory.
func (d *Driver) MemAlloc(bytes int) (uintptr, error) {
	var p uintptr
	err := d.call("cuMemAlloc_v2", d.f.MemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(bytes))
	return p, err
}

// MemFree frees device memory.
func (d *Driver) MemFree(p uintptr) error { return d.call("cuMemFree_v2", d.f.MemFree, p) }

// MemInfo returns the free and total device memory.
func (d *Driver) MemInfo() (free, total uint64, err error) {
	err = d.call("cuMemGetInfo_v2", d.f.MemGetInfo, uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total)))
	return free, total, err
}

// CopyHtoD queues a copy of bytes from host memory src to dst on stream. From pageable memory
// the driver stages the data before returning, so src may be reused afterwards.
func (d *Driver) CopyHtoD(dst uintptr, src unsafe.Pointer, bytes int, stream uintptr) error {
	err := d.call("cuMemcpyHtoDAsync_v2", d.f.MemcpyHtoDAsync, dst, uintptr(src), uintptr(bytes), stream)
	runtime.KeepAlive(src)
	return err
}

// CopyDtoH queues a copy from device memory to host memory dst; call StreamSync before reading
// dst.
func (d *Driver) CopyDtoH(dst unsafe.Pointer, src uintptr, bytes int, stream uintptr) error {
	err := d.call("cuMemcpyDtoHAsync_v2", d.f.MemcpyDtoHAsync, uintptr(dst), src, uintptr(bytes), stream)
	runtime.KeepAlive(dst)
	return err
}

// CopyDtoD queues a device-to-device copy.
func (d *Driver) CopyDtoD(dst, src uintptr, bytes int, stream uintptr) error {
	return d.call("cuMemcpyDtoDAsync_v2", d.f.MemcpyDtoDAsync, dst, src, uintptr(bytes), stream)
}

// Memset16 queues setting n 16-bit words at p to v.
func (d *Driver) Memset16(p uintptr, v uint16, n int, stream uintptr) error {
	return d.call("cuMemsetD16Async", d.f.MemsetD16Async, p, uintptr(v), uintptr(n), stream)
}

// Memset32 queues setting n 32-bit words at p to v.
func (d *Driver) Memset32(p uintptr, v uint32, n int, stream uintptr) error {
	return d.call("cuMemsetD32Async", d.f.MemsetD32Async, p, uintptr(v), uintptr(n), stream)
}

// StreamCreate creates a stream that does not synchronise with the legacy default stream.
func (d *Driver) StreamCreate() (uintptr, error) {
	var s uintptr
	err := d.call("cuStreamCreate", d.f.StreamCreate, uintptr(unsafe.Pointer(&s)), 1) // CU_STREAM_NON_BLOCKING
	return s, err
}

// StreamSync waits for the work queued on a stream.
func (d *Driver) StreamSync(s uintptr) error {
	return d.call("cuStreamSynchronize", d.f.StreamSynchronize, s)
}

// StreamDestroy destroys a stream.
func (d *Driver) StreamDestroy(s uintptr) error {
	return d.call("cuStreamDestroy_v2", d.f.StreamDestroy, s)
}

// StreamWaitEvent makes later work on s wait for ev.
func (d *Driver) StreamWaitEvent(s, ev uintptr) error {
	return d.call("cuStreamWaitEvent", d.f.StreamWaitEvent, s, ev, 0)
}

// EventCreate creates an event (timing enabled when timed).
func (d *Driver) EventCreate(timed bool) (uintptr, error) {
	var e uintptr
	flags := uintptr(2) // CU_EVENT_DISABLE_TIMING
	if timed {
		flags = 0
	}
	err := d.call("cuEventCreate", d.f.EventCreate, uintptr(unsafe.Pointer(&e)), flags)
	return e, err
}

// EventRecord records ev on stream s.
func (d *Driver) EventRecord(ev, s uintptr) error {
	return d.call("cuEventRecord", d.f.EventRecord, ev, s)
}

// EventSync waits for ev.
func (d *Driver) EventSync(ev uintptr) error {
	return d.call("cuEventSynchronize", d.f.EventSynchronize, ev)
}

// EventElapsed returns the milliseconds between two recorded events.
func (d *Driver) EventElapsed(start, end uintptr) (float32, error) {
	var ms float32
	err := d.call("cuEventElapsedTime", d.f.EventElapsedTime, uintptr(unsafe.Pointer(&ms)), start, end)
	return ms, err
}

// EventDestroy destroys an event.
func (d *Driver) EventDestroy(ev uintptr) error {
	return d.call("cuEventDestroy_v2", d.f.EventDestroy, ev)
}

// JIT options of cuModuleLoadDataEx.
const (
	jitErrorLogBuffer          = 5
	jitErrorLogBufferSizeBytes = 6
)

// jitLogSize is the size of the buffer the JIT writes its error log into.
const jitLogSize = 8192

// ModuleLoad loads a PTX (NUL-terminated) or cubin image, JIT-compiling PTX for the device; a
// compile error carries the JIT's log.
func (d *Driver) ModuleLoad(image []byte) (uintptr, error) {
	if len(image) == 0 || image[len(image)-1] != 0 {
		image = append(append([]byte(nil), image...), 0)
	}
	// The driver gets the log buffer's address inside the option values, where Go cannot see
	// it: the buffer is pinned heap memory (a Pinner moves it off the stack and keeps it put).
	logBuf := make([]byte, jitLogSize)
	var pin runtime.Pinner
	pin.Pin(&logBuf[0])
	defer pin.Unpin()
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSizeBytes}
	vals := []uintptr{uintptr(unsafe.Pointer(&logBuf[0])), uintptr(len(logBuf))}
	var m uintptr
	err := d.call("cuModuleLoadDataEx", d.f.ModuleLoadDataEx, uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&image[0])),
		uintptr(len(opts)), uintptr(unsafe.Pointer(&opts[0])), uintptr(unsafe.Pointer(&vals[0])))
	runtime.KeepAlive(image)
	if err != nil {
		if log := lib.CString(&logBuf[0], len(logBuf)); log != "" {
			return 0, fmt.Errorf("%w: %s", err, log)
		}
		return 0, err
	}
	return m, nil
}

// Function returns a kernel of a loaded module.
func (d *Driver) Function(module uintptr, name string) (uintptr, error) {
	cname := append([]byte(name), 0)
	var f uintptr
	err := d.call("cuModuleGetFunction("+name+")", d.f.ModuleGetFunction, uintptr(unsafe.Pointer(&f)), module, uintptr(unsafe.Pointer(&cname[0])))
	return f, err
}

// Launch queues kernel f on a grid of blocks×threads on stream. params holds one pointer per
// kernel parameter, each to that parameter's value (cuLaunchKernel's kernelParams); the values
// must stay alive until Launch returns (the driver copies them).
func (d *Driver) Launch(f uintptr, blocks, threads [3]uint32, sharedBytes uint32, stream uintptr, params []unsafe.Pointer) error {
	if len(params) == 0 {
		params = []unsafe.Pointer{nil}
	}
	err := d.call("cuLaunchKernel", d.f.LaunchKernel, f,
		uintptr(blocks[0]), uintptr(blocks[1]), uintptr(blocks[2]),
		uintptr(threads[0]), uintptr(threads[1]), uintptr(threads[2]),
		uintptr(sharedBytes), stream, uintptr(unsafe.Pointer(&params[0])), 0)
	runtime.KeepAlive(params)
	return err
}
