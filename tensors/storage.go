package tensors

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/goaccel/goaccel/tensors/backend"
)

// storage is one device buffer and the tensors that view it. refs counts the tensor handles
// that hold it and have not been released, plus the autograd nodes that keep it for their
// backward pass. When refs reaches zero the buffer goes back to its device for reuse and the
// storage is detached (buf nil): a released handle can then never see memory that another
// tensor has been given, it panics instead.
//
// A handle dropped without Release keeps its reference, so refs never reaches zero; the buffer
// comes back by the second way of doc.go's lifetime rule instead: once nothing reaches the
// storage (no handle, view, node or kernel), nothing reaches its backend.Buffer, whose
// backend.Reclaim hands the memory back to the device, and the device's pacer makes the
// collector look often enough. Either way a buffer is reused only when nothing can read it:
// every op keeps the tensors whose buffers it gives a kernel reachable until the kernel returns
// (they are used after it: recorded in the op's autograd node or released), which
// sim.CollectEachKernel checks over the op suite.
type storage struct {
	buf      *backend.Buffer
	be       backend.Backend
	refs     atomic.Int32
	exported atomic.Bool // host slices of buf were handed out (Data32): never recycled

	lazy atomic.Uint32 // lazyPending, lazyReaders, lazyEvicted: settle before using buf (deferred.go, evict.go)
	lazyState
	ev *evicted // how the elements come back while lazyEvicted is set (evict.go)
}

// newStorage wraps a fresh buffer with one reference (its first handle's).
func newStorage(be backend.Backend, buf *backend.Buffer) *storage {
	s := &storage{buf: buf, be: be}
	s.refs.Store(1)
	return s
}

// retain adds a reference.
func (s *storage) retain() { s.refs.Add(1) }

// drop removes a reference and recycles the buffer when it was the last.
func (s *storage) drop() {
	n := s.refs.Add(-1)
	switch {
	case n > 0:
		return
	case n < 0:
		panic("tensors: internal error: storage released more often than it was held")
	}
	if s.lazy.Load() != 0 {
		s.mu.Lock()
		s.pending = nil // a released deferred is never computed
		s.mu.Unlock()
		s.settle() // the deferreds reading s, before its buffer is reused
		s.forgetEviction()
	}
	b := s.buf
	s.buf = nil
	if b != nil && !s.exported.Load() {
		s.be.Release(b)
	}
}

// buf returns t's buffer, computing it first when it is deferred and the deferreds that read it
// (deferred.go), panicking when the storage was recycled after t was released.
func (t *Tensor) buf() *backend.Buffer {
	if t.st.lazy.Load() != 0 {
		t.st.settle()
		if t.st.lazy.Load()&lazyEvicted != 0 {
			t.st.restore()
		}
	}
	b := t.st.buf
	if b == nil {
		panic(fmt.Sprintf("tensors: use of a released tensor (%s %v); Release ends a tensor's life, keep it until you are done with it", t.dtype, t.shape))
	}
	return b
}

// Release says the caller is done with t: when no other tensor sharing t's storage (a view,
// Detach, a gradient handed out by Grad) is still held and no pending backward pass needs it,
// the memory goes back to the device at once and the next tensor of a similar size reuses it,
// still in the cache (PyTorch frees a tensor when its last Python reference goes; Go cannot see
// that, so a program that wants the memory back at once says so). Releasing is optional: a
// tensor that is simply dropped comes back to its device's pool after the next collection,
// which the device's pacer runs when the dropped memory exceeds its budget (doc.go, Memory).
//
// t must not be used after Release; doing so panics once its memory has been reused. Releasing
// twice, or releasing nil, does nothing. Parameters (leaf tensors that require grad) cannot be
// released.
func (t *Tensor) Release() {
	if t == nil || t.released {
		return
	}
	if t.node == nil && t.requiresGrad {
		panic(fmt.Sprintf("tensors: Release of a parameter (%s %v); parameters live as long as their model", t.dtype, t.shape))
	}
	t.released = true
	t.st.drop()
}

// release is Release for tensors the package made itself (internal temporaries, gradients).
func (t *Tensor) release() {
	if t != nil && !t.released {
		t.released = true
		t.st.drop()
	}
}

// export marks t's storage as reachable through host slices (Data32) or a device address
// (DataPtr) the caller keeps: Release never recycles it. Host memory is not reclaimed either
// (the slice may outlive every tensor; the garbage collector frees it once nothing references
// it); a device address is valid while the tensor is reachable, as DataPtr says.
func (t *Tensor) export() {
	if !t.st.exported.Swap(true) && !t.onDevice() {
		t.buf().Escape()
	}
}

// keep keeps ts reachable until it is called. Ops call it after a kernel on tensors they do not
// otherwise use afterwards (the caller's tensor an in-place op writes, a source read once), so
// that a caller who dropped them cannot have their buffer reclaimed under the kernel.
func keep(ts ...*Tensor) { runtime.KeepAlive(ts) }

// handOver returns next, releasing old when next is another handle: the idiom for an internal
// temporary replaced by a result computed from it (a view of it keeps its storage alive). old
// must be a handle the caller owns, never a tensor it was given.
func handOver(old, next *Tensor) *Tensor {
	if next != old {
		old.release()
	}
	return next
}

// handOverUnless is handOver that never releases keep (a tensor the caller does not own).
func handOverUnless(old, keep, next *Tensor) *Tensor {
	if next != old && old != keep {
		old.release()
	}
	return next
}
