package device

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/alloc"
	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/kernels"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Device is one GPU's backend. Its methods may be called from any goroutine: they take the
// device's lock, make its context current on the calling thread (driver.Context.Do) and queue
// work on its stream.
type Device struct {
	index  int
	drv    *driver.Driver
	ctx    *driver.Context
	stream uintptr
	module uintptr
	blas   *cublas.Handle
	cache  *alloc.Cache
	pacer  *backend.Pacer
	errBuf uintptr // four int64 on the device: a kernel's report of a bad input
	tf32   bool    // the math mode set on blas

	mu  sync.Mutex // serialises the device's calls
	fns map[string]uintptr

	// onLaunch, when set (by this package's tests), sees every launch's parameters as
	// marshalled and where they lie.
	onLaunch func(kernel string, args []arg, at []unsafe.Pointer)

	blocksMu sync.Mutex
	blocks   map[uintptr]block // live buffers' blocks
}

// block is the allocation behind a live buffer.
type block struct {
	size    int
	cleanup runtime.Cleanup
	// uses are events recorded after work queued on other streams (NCCL's) that reads or
	// writes the block, by stream: before the block goes back to the cache, the device's
	// stream waits for them, so work that reuses it runs after them.
	uses map[uintptr]uintptr
}

// rawMem adapts the driver to alloc.Raw (called with the context current).
type rawMem struct{ d *driver.Driver }

func (r rawMem) Alloc(n int) (uintptr, error) {
	p, err := r.d.MemAlloc(n)
	if de, ok := err.(*driver.Error); ok && de.Code == driver.ErrorOutOfMemory {
		return 0, fmt.Errorf("%w: %v", alloc.ErrOutOfMemory, err)
	}
	return p, err
}

func (r rawMem) Free(p uintptr) error { return r.d.MemFree(p) }

func newDevice(l libs, index int) (*Device, error) {
	dev, err := l.drv.Device(index)
	if err != nil {
		return nil, err
	}
	ctx, err := l.drv.PrimaryContext(dev)
	if err != nil {
		return nil, err
	}
	d := &Device{index: index, drv: l.drv, ctx: ctx, fns: map[string]uintptr{}, blocks: map[uintptr]block{}}
	total, _ := l.drv.TotalMem(dev)
	d.pacer = newPacer(index, int64(total))
	d.cache = alloc.New(rawMem{l.drv})
	d.cache.Reclaim = reclaim
	err = ctx.Do(func() error {
		var err error
		if d.stream, err = l.drv.StreamCreate(); err != nil {
			return err
		}
		if d.module, err = l.drv.ModuleLoad(kernels.PTX); err != nil {
			return fmt.Errorf("load goaccel's kernels: %w", err)
		}
		if d.blas, err = l.blas.Create(); err != nil {
			return err
		}
		if err = d.blas.SetStream(d.stream); err != nil {
			return err
		}
		if d.errBuf, err = l.drv.MemAlloc(32); err != nil {
			return err
		}
		return l.drv.Memset32(d.errBuf, 0, 8, d.stream)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Bounds of the pacer's budget for device memory: buffers dropped without Release may take up
// to the budget between two collections. A GPU runs an op on megabytes in microseconds, so the
// budget starts larger than the host's and may grow to a quarter of the device's memory (at most
// 4 GiB) when collections are costly against the work between them.
const (
	minDeviceBudget = 256 << 20
	maxDeviceBudget = 4 << 30
)

func newPacer(index int, total int64) *backend.Pacer {
	hi := int64(maxDeviceBudget)
	if total > 0 {
		hi = min(hi, total/4)
	}
	lo := min(int64(minDeviceBudget), hi)
	return backend.NewPacer(fmt.Sprintf("cuda:%d", index), lo, hi)
}

// reclaim runs the garbage collector so that device buffers no longer referenced return their
// blocks (their cleanups run on other goroutines), and waits for those cleanups.
func reclaim() { backend.Collect() }

// Name implements backend.Core.
func (d *Device) Name() string { return "cuda" }

// run does fn with the device locked and its context current; a CUDA error panics with the
// operation's name (the work cannot go on; tensors' ops panic on failure too).
func (d *Device) run(what string, fn func() error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ctx.Do(fn); err != nil {
		if errors.Is(err, alloc.ErrOutOfMemory) {
			// An error value, so that accelerate.FindExecutableBatchSize (errors.Is) knows it.
			panic(fmt.Errorf("tensors: %s on cuda:%d: %w", what, d.index, err))
		}
		panic(fmt.Sprintf("tensors: %s on cuda:%d: %v", what, d.index, err))
	}
}

// fn returns a kernel of the module (looked up once).
func (d *Device) fn(name string) (uintptr, error) {
	if f, ok := d.fns[name]; ok {
		return f, nil
	}
	f, err := d.drv.Function(d.module, name)
	if err != nil {
		return 0, err
	}
	d.fns[name] = f
	return f, nil
}

const threads = 256

// blocksFor is the grid of a grid-stride kernel over n elements.
func blocksFor(n int64) uint32 { return uint32(min((n+threads-1)/threads, 65535)) }

// rowsGrid is the grid of a kernel with one block per row.
func rowsGrid(rows int64) uint32 { return uint32(min(rows, 65535)) }

// launch queues kernel name on grid blocks of 256 threads with the given parameters, each
// marshalled as its C type: uintptr and int64 (8 bytes), int32 (4), float32 (4), float64 (8),
// or one of this package's argument structs (their bytes).
func (d *Device) launch(name string, grid uint32, params ...any) error {
	if grid == 0 {
		return nil
	}
	f, err := d.fn(name)
	if err != nil {
		return err
	}
	// One arena for all values, each 8-aligned, with slack at the end.
	args := make([]arg, len(params))
	size := 128
	for i, p := range params {
		args[i] = marshal(p)
		size += (len(args[i].bytes) + 7) &^ 7
	}
	arena := make([]byte, size)
	ptrs := make([]unsafe.Pointer, len(params))
	off := 0
	for i, a := range args {
		copy(arena[off:], a.bytes)
		ptrs[i] = unsafe.Pointer(&arena[off])
		off += (len(a.bytes) + 7) &^ 7
	}
	if d.onLaunch != nil {
		d.onLaunch(name, args, ptrs)
	}
	err = d.drv.Launch(f, [3]uint32{grid, 1, 1}, [3]uint32{threads, 1, 1}, 0, d.stream, ptrs)
	runtime.KeepAlive(arena)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// arg is one kernel parameter as launch marshals it: its bytes, the C type they stand for
// ("int32", "int64", "float32", "float64" or "struct") and the Go type's alignment.
type arg struct {
	bytes []byte
	kind  string
	align int
}

func bytesOf[T any](v T) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v))...)
}

func argOf[T any](v T, kind string) arg {
	return arg{bytes: bytesOf(v), kind: kind, align: int(unsafe.Alignof(v))}
}

func marshal(p any) arg {
	switch v := p.(type) {
	case uintptr:
		return argOf(v, "int64")
	case int64:
		return argOf(v, "int64")
	case uint64:
		return argOf(v, "int64")
	case int32:
		return argOf(v, "int32")
	case float32:
		return argOf(v, "float32")
	case float64:
		return argOf(v, "float64")
	case shapeArg:
		return argOf(v, "struct")
	case viewArg:
		return argOf(v, "struct")
	case convArg:
		return argOf(v, "struct")
	case backend.AdamScalars:
		return argOf(v, "struct")
	case sgdArg:
		return argOf(v, "struct")
	case avgPoolArg:
		return argOf(v, "struct")
	case adadeltaArg:
		return argOf(v, "struct")
	case rmspropArg:
		return argOf(v, "struct")
	case adagradArg:
		return argOf(v, "struct")
	case attnArg:
		return argOf(v, "struct")
	case attnGradArg:
		return argOf(v, "struct")
	}
	panic(fmt.Sprintf("cuda: kernel parameter of type %T", p))
}

// addr is the device address of element off of b.
func addr(b *backend.Buffer, off int) uintptr {
	if b == nil {
		return 0
	}
	return b.Ptr + uintptr(off*b.DType.Size())
}

// alloc returns a new buffer (called with the device locked and current).
func (d *Device) alloc(dt backend.DType, n int, zero bool) (*backend.Buffer, error) {
	bytes := max(n*dt.Size(), 1)
	p, size, err := d.cache.Alloc(bytes)
	if err != nil {
		return nil, err
	}
	if zero {
		if err := d.drv.Memset32(p, 0, (bytes+3)/4, d.stream); err != nil {
			d.cache.Free(p, size)
			return nil, err
		}
	}
	d.pacer.Charge(size)
	b := &backend.Buffer{DType: dt, Len: n, Ptr: p}
	c := runtime.AddCleanup(b, d.dropBlock, p)
	d.blocksMu.Lock()
	d.blocks[p] = block{size: size, cleanup: c}
	d.blocksMu.Unlock()
	return b, nil
}

// dropBlock returns the block of a buffer the program no longer references to the cache.
func (d *Device) dropBlock(p uintptr) {
	d.blocksMu.Lock()
	blk, ok := d.blocks[p]
	delete(d.blocks, p)
	d.blocksMu.Unlock()
	if ok {
		d.free(p, blk)
	}
}

// free hands a block back to the cache, once the device's stream is ordered after the other
// streams' work on it (a failure to order them is the context's sticky error, which the next
// call reports).
func (d *Device) free(p uintptr, blk block) {
	if len(blk.uses) > 0 {
		_ = d.ctx.Do(func() error {
			for _, ev := range blk.uses {
				_ = d.drv.StreamWaitEvent(d.stream, ev)
				_ = d.drv.EventDestroy(ev)
			}
			return nil
		})
	}
	d.cache.Free(p, blk.size)
}

// RecordUse tells the allocator that work just queued on stream (another than the device's)
// uses the memory at ptr: the block holding it is not reused by the device's stream before that
// work is done, even if the buffer is released or collected first. It needs the device's context
// current (inside Do).
func (d *Device) RecordUse(ptr, stream uintptr) error {
	ev, err := d.drv.EventCreate(false)
	if err != nil {
		return err
	}
	if err := d.drv.EventRecord(ev, stream); err != nil {
		d.drv.EventDestroy(ev)
		return err
	}
	d.blocksMu.Lock()
	defer d.blocksMu.Unlock()
	base, found := ptr, false
	if _, found = d.blocks[ptr]; !found { // a view into a buffer: find the block holding it
		for p, blk := range d.blocks {
			if ptr >= p && ptr < p+uintptr(blk.size) {
				base, found = p, true
				break
			}
		}
	}
	if !found {
		d.drv.EventDestroy(ev)
		return fmt.Errorf("cuda:%d: no live buffer holds %#x", d.index, ptr)
	}
	blk := d.blocks[base]
	if blk.uses == nil {
		blk.uses = map[uintptr]uintptr{}
	}
	if old, ok := blk.uses[stream]; ok {
		d.drv.EventDestroy(old) // a stream runs in order: the newer event covers the older
	}
	blk.uses[stream] = ev
	d.blocks[base] = blk
	return nil
}

// Alloc implements backend.Core.
func (d *Device) Alloc(dt backend.DType, n int) *backend.Buffer {
	var b *backend.Buffer
	d.run("allocate", func() (err error) { b, err = d.alloc(dt, n, true); return err })
	return b
}

// AllocUninit implements backend.Core.
func (d *Device) AllocUninit(dt backend.DType, n int) *backend.Buffer {
	var b *backend.Buffer
	d.run("allocate", func() (err error) { b, err = d.alloc(dt, n, false); return err })
	return b
}

// Release implements backend.Core: the block is reused by later work on the stream.
func (d *Device) Release(b *backend.Buffer) {
	if b == nil || b.Ptr == 0 {
		return
	}
	d.blocksMu.Lock()
	blk, ok := d.blocks[b.Ptr]
	delete(d.blocks, b.Ptr)
	d.blocksMu.Unlock()
	if ok {
		blk.cleanup.Stop()
		d.pacer.Credit(blk.size)
		d.free(b.Ptr, blk)
	}
}

// hostPtr is the first element of a host buffer's slice.
func hostPtr(h *backend.Buffer) unsafe.Pointer {
	switch {
	case len(h.F32) > 0:
		return unsafe.Pointer(&h.F32[0])
	case len(h.F64) > 0:
		return unsafe.Pointer(&h.F64[0])
	case len(h.I64) > 0:
		return unsafe.Pointer(&h.I64[0])
	case len(h.U16) > 0:
		return unsafe.Pointer(&h.U16[0])
	}
	return nil
}

// Upload implements backend.Transfer.
func (d *Device) Upload(h *backend.Buffer) *backend.Buffer {
	var b *backend.Buffer
	d.run("upload", func() (err error) {
		if b, err = d.alloc(h.DType, h.Len, false); err != nil || h.Len == 0 {
			return err
		}
		return d.drv.CopyHtoD(b.Ptr, hostPtr(h), h.Len*h.DType.Size(), d.stream)
	})
	return b
}

// Download implements backend.Transfer: it waits for the work queued so far, and reports a bad
// input a kernel found.
func (d *Device) Download(b *backend.Buffer) *backend.Buffer {
	h := backend.NewHost(b.DType, b.Len)
	d.run("read back", func() error {
		if b.Len > 0 {
			if err := d.drv.CopyDtoH(hostPtr(h), b.Ptr, b.Len*b.DType.Size(), d.stream); err != nil {
				return err
			}
		}
		return d.sync()
	})
	return h
}

// Synchronize waits for the device's queued work (for timing).
func (d *Device) Synchronize() { d.run("synchronize", d.sync) }

// sync waits for the stream and panics with the first bad input a kernel reported since.
func (d *Device) sync() error {
	var rep [4]int64
	if err := d.drv.CopyDtoH(unsafe.Pointer(&rep[0]), d.errBuf, 32, d.stream); err != nil {
		return err
	}
	if err := d.drv.StreamSync(d.stream); err != nil {
		return err
	}
	if rep[0] == 0 {
		return nil
	}
	if err := d.drv.Memset32(d.errBuf, 0, 8, d.stream); err != nil {
		return err
	}
	const how = " (found by a kernel on cuda:%d, reported when its results were read back)"
	switch rep[0] {
	case 2:
		panic(fmt.Sprintf("tensors: CrossEntropy: target %d at row %d is outside [0, %d) (classes of logits)"+how, rep[1], rep[2], rep[3], d.index))
	case 3:
		panic(fmt.Sprintf("tensors: Multinomial: row %d (draw %d) of %d weights has a negative, NaN or infinite weight, or none left above zero"+how, rep[1], rep[2], rep[3], d.index))
	default:
		panic(fmt.Sprintf("tensors: index %d out of range for dimension of size %d"+how, rep[1], rep[2], d.index))
	}
}

// Stream returns the device's stream (collectives queue their work on it).
func (d *Device) Stream() uintptr { return d.stream }

// Index returns the device ordinal.
func (d *Device) Index() int { return d.index }

// Do runs fn with the device locked and its context current.
func (d *Device) Do(fn func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx.Do(fn)
}

// Driver returns the driver the device runs on.
func (d *Device) Driver() *driver.Driver { return d.drv }

// CacheStats returns the caching allocator's counters.
func (d *Device) CacheStats() alloc.Stats { return d.cache.Stats() }

// ResetPeakMemory starts the allocator's peak of memory in use again from what is in use now.
func (d *Device) ResetPeakMemory() { d.cache.ResetPeak() }

// Pacer returns the pacer that counts the device's memory.
func (d *Device) Pacer() *backend.Pacer { return d.pacer }

var (
	_ backend.Backend  = (*Device)(nil)
	_ backend.Transfer = (*Device)(nil)
)
