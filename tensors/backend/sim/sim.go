package sim

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// Stats counts a device's transfers and live buffers.
type Stats struct {
	Uploads, Downloads         int64 // transfers
	UploadBytes, DownloadBytes int64
	Live                       int // buffers allocated and not released
}

// Device is one simulated device.
type Device struct {
	name string
	cpu  *cpu.CPU

	mu   sync.Mutex
	bufs map[uintptr]*backend.Buffer // handle → hidden host buffer
	next uintptr

	uploads, downloads, upBytes, downBytes atomic.Int64
}

// New returns a core-only simulated device named name.
func New(name string) *Device {
	return &Device{name: name, cpu: cpu.New(), bufs: map[uintptr]*backend.Buffer{}, next: 1}
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

// Stats returns the transfer counts so far and the number of live buffers.
func (d *Device) Stats() Stats {
	d.mu.Lock()
	live := len(d.bufs)
	d.mu.Unlock()
	return Stats{Uploads: d.uploads.Load(), Downloads: d.downloads.Load(),
		UploadBytes: d.upBytes.Load(), DownloadBytes: d.downBytes.Load(), Live: live}
}

// adopt registers a hidden host buffer and returns its opaque device handle.
func (d *Device) adopt(h *backend.Buffer) *backend.Buffer {
	d.mu.Lock()
	id := d.next
	d.next++
	d.bufs[id] = h
	d.mu.Unlock()
	return &backend.Buffer{DType: h.DType, Len: h.Len, Ptr: id}
}

// host returns the hidden buffer behind a device buffer (nil for nil).
func (d *Device) host(b *backend.Buffer) *backend.Buffer {
	if b == nil {
		return nil
	}
	if b.F32 != nil || b.F64 != nil || b.I64 != nil || b.U16 != nil {
		panic(fmt.Sprintf("sim: %s was given a host buffer (%s, %d elements); data must reach a device through an upload", d.name, b.DType, b.Len))
	}
	d.mu.Lock()
	h, ok := d.bufs[b.Ptr]
	d.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("sim: %s: buffer %d (%s, %d elements) was released, or belongs to another device", d.name, b.Ptr, b.DType, b.Len))
	}
	return h
}

func (d *Device) view(s backend.Strided) backend.Strided {
	return backend.Strided{Buf: d.host(s.Buf), Offset: s.Offset, Strides: s.Strides}
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
	d.mu.Lock()
	delete(d.bufs, b.Ptr)
	d.mu.Unlock()
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
	h := d.host(b)
	d.downloads.Add(1)
	d.downBytes.Add(int64(b.Len * b.DType.Size()))
	c := backend.NewHost(h.DType, h.Len)
	d.cpu.Copy(backend.Strided{Buf: c, Strides: []int{1}}, backend.Strided{Buf: h, Strides: []int{1}}, []int{h.Len})
	return c
}

// Fill implements backend.Core.
func (d *Device) Fill(b *backend.Buffer, v float64) { d.cpu.Fill(d.host(b), v) }

// Copy implements backend.Core.
func (d *Device) Copy(dst, src backend.Strided, shape []int) {
	d.cpu.Copy(d.view(dst), d.view(src), shape)
}

// Unary implements backend.Core.
func (d *Device) Unary(op backend.UnaryOp, dst, x *backend.Buffer, p, q float64) {
	d.cpu.Unary(op, d.host(dst), d.host(x), p, q)
}

// UnaryGrad implements backend.Core.
func (d *Device) UnaryGrad(op backend.UnaryOp, dx, gy, x, y *backend.Buffer, p, q float64) {
	d.cpu.UnaryGrad(op, d.host(dx), d.host(gy), d.host(x), d.host(y), p, q)
}

// Binary implements backend.Core.
func (d *Device) Binary(op backend.BinaryOp, dst *backend.Buffer, a, b backend.Strided, shape []int) {
	d.cpu.Binary(op, d.host(dst), d.view(a), d.view(b), shape)
}

// Where implements backend.Core.
func (d *Device) Where(dst *backend.Buffer, cond, a, b backend.Strided, shape []int) {
	d.cpu.Where(d.host(dst), d.view(cond), d.view(a), d.view(b), shape)
}

// Reduce implements backend.Core.
func (d *Device) Reduce(op backend.ReduceOp, dst, src *backend.Buffer, outer, n, inner int) {
	d.cpu.Reduce(op, d.host(dst), d.host(src), outer, n, inner)
}

// Gemm implements backend.Core.
func (d *Device) Gemm(lowp backend.DType, transA, transB bool, batch, m, n, k int, alpha float64,
	a *backend.Buffer, aOff, lda, strideA int, b *backend.Buffer, bOff, ldb, strideB int,
	beta float64, c *backend.Buffer, cOff, ldc, strideC int) {
	d.cpu.Gemm(lowp, transA, transB, batch, m, n, k, alpha, d.host(a), aOff, lda, strideA,
		d.host(b), bOff, ldb, strideB, beta, d.host(c), cOff, ldc, strideC)
}

var (
	_ backend.Core     = (*Device)(nil)
	_ backend.Transfer = (*Device)(nil)
)
