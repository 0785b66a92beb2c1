package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Evicted storage. A sharded data-parallel trainer (package accelerate's FSDP) keeps each
// parameter's elements only while a forward or backward pass needs them: between uses the
// parameter's memory goes back to its device, and the next use of the elements brings them back
// (an all-gather of every process's shard). The parameter tensor stays the same Go value all the
// while, so the modules, optimizers and autograd nodes that hold it, and the views made of it (a
// transposed weight kept for the backward pass), need to know nothing about it: the first op
// that reads or writes the storage asks for the elements through the function given to Evict.

// evicted is what brings an evicted storage's elements back.
type evicted struct {
	root  *Tensor         // a tensor covering the whole storage, the one Evict was called on
	onUse func(t *Tensor) // called with root; must call root.Unevict
	busy  bool            // onUse is running
}

// Evict gives t's memory back to its device while t stays usable: t must cover its storage whole
// and contiguously (a parameter does). The next read or write of the elements, through t, a view
// of it or an autograd node that holds it, first calls onUse(t), which must bring the elements
// back with t.Unevict; an op that finds them still evicted after onUse panics. Evicting an evicted
// tensor replaces its onUse. Evict waits for the deferred work that reads t.
//
// Host memory that was handed out by Data32 is not reused (the program may still hold the
// slice): it is left to the garbage collector, and writes through that slice no longer reach t.
func (t *Tensor) Evict(onUse func(t *Tensor)) {
	if onUse == nil {
		panic("tensors: Evict: onUse is nil; it is what brings the elements back")
	}
	s := t.st
	if s.lazy.Load()&lazyEvicted != 0 {
		s.mu.Lock()
		s.ev.onUse = onUse
		s.mu.Unlock()
		return
	}
	b := t.buf() // settles the deferreds that read t
	if t.offset != 0 || !t.isContiguous() || b.Len != t.Numel() {
		panic(fmt.Sprintf("tensors: Evict: the tensor (%s %v) is a part of a larger storage; evict the tensor that covers it whole", t.dtype, t.shape))
	}
	s.mu.Lock()
	s.ev = &evicted{root: t, onUse: onUse}
	s.buf = nil
	s.lazy.Or(lazyEvicted)
	s.mu.Unlock()
	if !s.exported.Load() {
		s.be.Release(b)
	}
	keep(t)
}

// Evicted reports whether t's elements are evicted (Evict, not brought back yet).
func (t *Tensor) Evicted() bool { return t.st.lazy.Load()&lazyEvicted != 0 }

// Unevict brings the elements of t, an evicted tensor, back: t gets fresh memory on its device
// holding src's elements (src has t's number of elements, on any device, in any float type:
// converted to t's). It does nothing when t is not evicted.
func (t *Tensor) Unevict(src *Tensor) {
	s := t.st
	if s.lazy.Load()&lazyEvicted == 0 {
		return
	}
	if src.Numel() != t.Numel() {
		panic(fmt.Sprintf("tensors: Unevict: %v has %d elements, the evicted tensor %v has %d", src.shape, src.Numel(), t.shape, t.Numel()))
	}
	if !sameDevice(src.dev, t.dev) {
		m := src.moved(t.dev)
		defer m.release()
		src = m
	}
	if src.dtype != t.dtype || !src.isContiguous() {
		c := src.convertTo(t.dtype)
		defer c.release()
		src = c
	}
	buf := s.be.AllocUninit(t.dtype.be(), t.Numel())
	s.mu.Lock()
	s.buf = buf
	s.ev = nil
	s.exported.Store(false) // fresh memory nobody has a slice of
	s.lazy.And(^uint32(lazyEvicted))
	s.mu.Unlock()
	t.be().Copy(t.strided(), backend.Strided{Buf: src.buf(), Offset: src.offset, Strides: t.strides}, t.shape)
	keep(t, src)
}

// restore brings an evicted storage's elements back through its onUse, for an op about to use
// them.
func (s *storage) restore() {
	s.mu.Lock()
	ev := s.ev
	if ev == nil { // brought back meanwhile
		s.mu.Unlock()
		return
	}
	if ev.busy {
		s.mu.Unlock()
		panic(fmt.Sprintf("tensors: an evicted tensor (%s %v) was used while its onUse was bringing it back; onUse must call Unevict before reading it", ev.root.dtype, ev.root.shape))
	}
	ev.busy = true
	s.mu.Unlock()
	ev.onUse(ev.root)
	if s.lazy.Load()&lazyEvicted != 0 {
		s.mu.Lock()
		ev.busy = false
		s.mu.Unlock()
		panic(fmt.Sprintf("tensors: the onUse of an evicted tensor (%s %v) returned without Unevict", ev.root.dtype, ev.root.shape))
	}
}

// forgetEviction drops what an evicted storage kept to bring its elements back, when its last
// holder is gone.
func (s *storage) forgetEviction() {
	s.mu.Lock()
	s.ev = nil
	s.lazy.And(^uint32(lazyEvicted))
	s.mu.Unlock()
}
