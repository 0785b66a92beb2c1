package sim

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// Stats counts a device's transfers and live buffers.
type Stats struct {
	Uploads, Downloads         int64 // transfers
	UploadBytes, DownloadBytes int64
	Live                       int   // buffers allocated and neither released nor reclaimed
	LiveBytes                  int64 // their bytes
	Reclaimed                  int64 // buffers reclaimed after every tensor holding them was dropped
	MaxLiveBytes               int64 // the most LiveBytes has been
}

// Device is one simulated device.
type Device struct {
	name  string
	cpu   *cpu.CPU
	pacer *backend.Pacer

	mu        sync.Mutex
	bufs      map[uintptr]*backend.Buffer // handle → hidden host buffer
	next      uintptr
	liveBytes int64
	maxBytes  int64
	limit     int64 // SetMemoryLimit; 0: none

	uploads, downloads, upBytes, downBytes, reclaimed atomic.Int64
}

// New returns a core-only simulated device named name.
func New(name string) *Device {
	return &Device{name: name, cpu: cpu.New(), bufs: map[uintptr]*backend.Buffer{}, next: 1,
		pacer: backend.NewPacer(name, 64<<20, 256<<20)}
}

// NewFused returns a simulated device that also implements every fused op of backend.Backend.
func NewFused(name string) backend.Backend { return &fused{New(name)} }

var (
	devMu   sync.Mutex
	devices = map[string]*Device{}
)

func init() {
	backend.Register("sim", func(i int) (backend.Core, error) { return open("sim", i), nil }, count)
	backend.Register("simfused", func(i int) (backend.Core, error) { return &fused{open("simfused", i)}, nil }, count)
}

// count is how many simulated devices of each type a machine has.
func count() int { return 8 }

func open(typ string, i int) *Device {
	devMu.Lock()
	defer devMu.Unlock()
	key := fmt.Sprintf("%s:%d", typ, i)
	if d, ok := devices[key]; ok {
		return d
	}
	d := New(key)
	devices[key] = d
	return d
}

// Lookup returns the registered device of a type ("sim" or "simfused") and index, for tests
// that read its Stats.
func Lookup(typ string, i int) *Device { return open(typ, i) }

// Name implements backend.Core.
func (d *Device) Name() string { return d.name }

// Stats returns the transfer counts so far and the live buffers.
func (d *Device) Stats() Stats {
	d.mu.Lock()
	live, bytes, most := len(d.bufs), d.liveBytes, d.maxBytes
	d.mu.Unlock()
	return Stats{Uploads: d.uploads.Load(), Downloads: d.downloads.Load(),
		UploadBytes: d.upBytes.Load(), DownloadBytes: d.downBytes.Load(), Live: live,
		LiveBytes: bytes, Reclaimed: d.reclaimed.Load(), MaxLiveBytes: most}
}

// Pacer returns the pacer that counts the device's memory.
func (d *Device) Pacer() *backend.Pacer { return d.pacer }

func bytesOf(b *backend.Buffer) int64 { return int64(b.Len * b.DType.Size()) }

// adopt registers a hidden host buffer and returns its opaque device handle, which is reclaimed
// (the hidden buffer dropped) once no tensor references it, as a GPU's caching allocator
// gets its blocks back.
func (d *Device) adopt(h *backend.Buffer) *backend.Buffer {
	n := bytesOf(h)
	d.checkLimit(n)
	d.pacer.Charge(int(n))
	d.mu.Lock()
	id := d.next
	d.next++
	d.bufs[id] = h
	d.liveBytes += n
	d.maxBytes = max(d.maxBytes, d.liveBytes)
	d.mu.Unlock()
	b := &backend.Buffer{DType: h.DType, Len: h.Len, Ptr: id}
	backend.Reclaim(b, d.reclaim, id)
	return b
}

// reclaim drops the hidden buffer of a handle nothing references any more.
func (d *Device) reclaim(id uintptr) {
	if d.drop(id) {
		d.reclaimed.Add(1)
	}
}

// drop forgets a handle's hidden buffer; it reports false when the handle was released before.
func (d *Device) drop(id uintptr) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.bufs[id]
	if ok {
		delete(d.bufs, id)
		d.liveBytes -= bytesOf(h)
	}
	return ok
}

// host returns the hidden buffer behind a device buffer (nil for nil).
func (d *Device) host(b *backend.Buffer) *backend.Buffer {
	if b == nil {
		return nil
	}
	if b.F32 != nil || b.F64 != nil || b.I64 != nil || b.U16 != nil {
		panic(fmt.Sprintf("sim: %s was given a host buffer (%s, %d elements); data must reach a device through an upload", d.name, b.DType, b.Len))
	}
	return d.lookup(b.Ptr, b.DType, b.Len)
}

func (d *Device) lookup(id uintptr, dt backend.DType, n int) *backend.Buffer {
	d.mu.Lock()
	h, ok := d.bufs[id]
	d.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("sim: %s: buffer %d (%s, %d elements) was released, or belongs to another device", d.name, id, dt, n))
	}
	return h
}

// collectEachKernel is CollectEachKernel's switch; collected holds the call stacks already
// checked.
var (
	collectEachKernel atomic.Bool
	collectedMu       sync.Mutex
	collected         = map[[16]uintptr]bool{}
)

// CollectEachKernel makes every kernel of every simulated device, the first time it is called
// from a given call stack, run the garbage collector (and wait for its reclaims) after it has
// looked its buffers up and before it runs: a buffer whose tensors the caller let go of before
// the kernel returned is then reclaimed under the kernel, which panics saying so. Tests turn it
// on to prove package tensors keeps what a kernel uses reachable; it returns a function that
// restores the previous setting.
func CollectEachKernel(on bool) (restore func()) {
	old := collectEachKernel.Swap(on)
	return func() { collectEachKernel.Store(old) }
}

// firstFrom reports whether this is the first kernel call from the current call stack.
func firstFrom() bool {
	var pcs [16]uintptr
	runtime.Callers(3, pcs[:])
	collectedMu.Lock()
	defer collectedMu.Unlock()
	if collected[pcs] {
		return false
	}
	collected[pcs] = true
	return true
}

// use looks up the hidden buffers of a kernel's operands (nil stays nil). With CollectEachKernel
// on, it then forgets the handles, collects, and panics if any operand was reclaimed meanwhile.
func (d *Device) use(kernel string, bs ...*backend.Buffer) []*backend.Buffer {
	hs := make([]*backend.Buffer, len(bs))
	for i, b := range bs {
		hs[i] = d.host(b)
	}
	if !collectEachKernel.Load() || !firstFrom() {
		return hs
	}
	ids := make([]uintptr, len(bs))
	for i, b := range bs {
		if b != nil {
			ids[i] = b.Ptr
		}
		bs[i] = nil // the caller's handles must keep the buffers alive, not this list
	}
	backend.Collect()
	for i, id := range ids {
		if id == 0 {
			continue
		}
		d.mu.Lock()
		_, ok := d.bufs[id]
		d.mu.Unlock()
		if !ok {
			panic(fmt.Sprintf("sim: %s: %s: buffer %d (%s, %d elements), operand %d, was reclaimed while the kernel used it: nothing kept its tensor reachable", d.name, kernel, id, hs[i].DType, hs[i].Len, i))
		}
	}
	return hs
}

// take returns a view's buffer and clears it in the view, so that only the caller's handles keep
// it alive while use collects.
func take(s *backend.Strided) *backend.Buffer {
	b := s.Buf
	s.Buf = nil
	return b
}

// on is the view s of the hidden buffer h.
func on(h *backend.Buffer, s backend.Strided) backend.Strided {
	return backend.Strided{Buf: h, Offset: s.Offset, Strides: s.Strides}
}

// Alloc implements backend.Core.
func (d *Device) Alloc(dt backend.DType, n int) *backend.Buffer {
	return d.adopt(backend.NewHost(dt, n))
}

// AllocUninit implements backend.Core; the contents are poisoned (NaN, or a large integer) so a
// kernel that reads what it never wrote shows up in results.
func (d *Device) AllocUninit(dt backend.DType, n int) *backend.Buffer {
	h := backend.NewHost(dt, n)
	d.cpu.Fill(h, poison(dt))
	return d.adopt(h)
}

func poison(dt backend.DType) float64 {
	if dt == backend.I64 {
		return -1 << 40
	}
	return nan
}

var nan = func() float64 { z := 0.0; return z / z }()

// Release implements backend.Core: the handle becomes invalid.
func (d *Device) Release(b *backend.Buffer) {
	if b == nil {
		return
	}
	d.host(b)
	if d.drop(b.Ptr) {
		d.pacer.Credit(int(bytesOf(b)))
	}
}

// Upload implements backend.Transfer.
func (d *Device) Upload(h *backend.Buffer) *backend.Buffer {
	if h.F32 == nil && h.F64 == nil && h.I64 == nil && h.U16 == nil && h.Len > 0 {
		panic(fmt.Sprintf("sim: %s: upload of a buffer that is not in host memory", d.name))
	}
	d.uploads.Add(1)
	d.upBytes.Add(int64(h.Len * h.DType.Size()))
	c := backend.NewHost(h.DType, h.Len)
	d.cpu.Copy(backend.Strided{Buf: c, Strides: []int{1}}, backend.Strided{Buf: h, Strides: []int{1}}, []int{h.Len})
	return d.adopt(c)
}

// Download implements backend.Transfer.
func (d *Device) Download(b *backend.Buffer) *backend.Buffer {
	dt, n := b.DType, b.Len
	h := d.use("Download", b)[0]
	d.downloads.Add(1)
	d.downBytes.Add(int64(n * dt.Size()))
	c := backend.NewHost(h.DType, h.Len)
	d.cpu.Copy(backend.Strided{Buf: c, Strides: []int{1}}, backend.Strided{Buf: h, Strides: []int{1}}, []int{h.Len})
	return c
}

// Fill implements backend.Core.
func (d *Device) Fill(b *backend.Buffer, v float64) { d.cpu.Fill(d.use("Fill", b)[0], v) }

// Copy implements backend.Core.
func (d *Device) Copy(dst, src backend.Strided, shape []int) {
	h := d.use("Copy", take(&dst), take(&src))
	d.cpu.Copy(on(h[0], dst), on(h[1], src), shape)
}

// Unary implements backend.Core.
func (d *Device) Unary(op backend.UnaryOp, dst, x *backend.Buffer, p, q float64) {
	h := d.use("Unary", dst, x)
	d.cpu.Unary(op, h[0], h[1], p, q)
}

// UnaryGrad implements backend.Core.
func (d *Device) UnaryGrad(op backend.UnaryOp, dx, gy, x, y *backend.Buffer, p, q float64) {
	h := d.use("UnaryGrad", dx, gy, x, y)
	d.cpu.UnaryGrad(op, h[0], h[1], h[2], h[3], p, q)
}

// Binary implements backend.Core.
func (d *Device) Binary(op backend.BinaryOp, dst *backend.Buffer, a, b backend.Strided, shape []int) {
	h := d.use("Binary", dst, take(&a), take(&b))
	d.cpu.Binary(op, h[0], on(h[1], a), on(h[2], b), shape)
}

// Where implements backend.Core.
func (d *Device) Where(dst *backend.Buffer, cond, a, b backend.Strided, shape []int) {
	h := d.use("Where", dst, take(&cond), take(&a), take(&b))
	d.cpu.Where(h[0], on(h[1], cond), on(h[2], a), on(h[3], b), shape)
}

// Reduce implements backend.Core.
func (d *Device) Reduce(op backend.ReduceOp, dst, src *backend.Buffer, outer, n, inner int) {
	h := d.use("Reduce", dst, src)
	d.cpu.Reduce(op, h[0], h[1], outer, n, inner)
}

// Gemm implements backend.Core.
func (d *Device) Gemm(lowp backend.DType, transA, transB bool, batch, m, n, k int, alpha float64,
	a *backend.Buffer, aOff, lda, strideA int, b *backend.Buffer, bOff, ldb, strideB int,
	beta float64, c *backend.Buffer, cOff, ldc, strideC int) {
	h := d.use("Gemm", a, b, c)
	d.cpu.Gemm(lowp, transA, transB, batch, m, n, k, alpha, h[0], aOff, lda, strideA,
		h[1], bOff, ldb, strideB, beta, h[2], cOff, ldc, strideC)
}

var (
	_ backend.Core     = (*Device)(nil)
	_ backend.Transfer = (*Device)(nil)
)

// Checked returns how many call stacks CollectEachKernel has checked.
func Checked() int {
	collectedMu.Lock()
	defer collectedMu.Unlock()
	return len(collected)
}
