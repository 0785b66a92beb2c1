package tensors

import (
	"slices"
	"sync"
	"weak"

	"github.com/goaccel/goaccel/internal/profiling"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Deferred elementwise results. On a device that runs fused programs (backend.ElementwiseOps:
// the CPU), a large float32 elementwise op of tensors that need no gradient returns at once a
// tensor whose storage holds the op, its operands and the ops that made them (a deferred),
// instead of a buffer. The first read of its elements (any op that takes its buffer) computes
// them in one pass, each intermediate result of the chain a tile in the cache; a sum of all its
// elements computes them without writing them anywhere. So x.Add(y).MulScalar(0.5) reads x and y
// once and writes one result, and x.Sub(y).Pow(2).Mean() writes nothing: the temporaries a
// user drops are never made. Each element has the bits of the ops run one at a time.
//
// A deferred reads its operands when it is computed, so it must be computed before an operand
// changes: each operand's storage lists the deferreds that read it (its readers), and taking an
// operand's buffer for any op (the only way its elements are read or written: a kernel, Data32,
// an in-place update) or recycling it (Release) first computes the readers still alive. An
// operand whose elements can change behind the package's back (exported by Data32) is never
// deferred on; neither is one that needs a gradient, so autograd never sees a deferred.

// deferMin is the smallest result (elements) worth deferring: below it an op is a few
// microseconds and its result in the caches anyway.
const deferMin = 1 << 16

// deferMaxSteps and deferMaxInputs bound a chain: an operand that would make it longer is
// computed first and read as an input.
const (
	deferMaxSteps  = 8
	deferMaxInputs = 4
)

// Bits of storage.lazy.
const (
	lazyPending = 1 << iota // pending holds the elements' recipe; buf is nil
	lazyReaders             // readers lists deferreds that read buf
)

// deferred is the recipe of a storage's elements: a fused program over inputs that are
// materialised storages (read from their offsets), which it keeps reachable.
type deferred struct {
	n      int
	inputs []deferredInput
	steps  []backend.ElementwiseStep
}

type deferredInput struct {
	st     *storage
	offset int
}

// lazyState holds storage's part in deferred evaluation, guarded by mu.
type lazyState struct {
	mu      sync.Mutex
	pending *deferred
	readers []weak.Pointer[storage]
}

// settle computes s's elements if they are deferred and every live deferred that reads s, so
// that s's buffer can be read or written.
func (s *storage) settle() {
	s.mu.Lock()
	if s.pending != nil {
		s.materialiseLocked()
	}
	readers := s.readers
	s.readers = nil
	s.lazy.Store(0)
	s.mu.Unlock()
	for _, w := range readers {
		if r := w.Value(); r != nil {
			r.materialise()
		}
	}
}

// materialise computes s's elements if they are still deferred.
func (s *storage) materialise() {
	if s.lazy.Load()&lazyPending == 0 {
		return
	}
	s.mu.Lock()
	if s.pending != nil {
		s.materialiseLocked()
	}
	s.mu.Unlock()
}

func (s *storage) materialiseLocked() {
	d := s.pending
	if r := profiling.Active(); r != nil {
		// A deferred chain computed where it is first read, as one fused kernel.
		defer r.Start(profiling.CatOp, "Elementwise", profiling.Args{Device: s.be.Name(), DType: "float32", Shapes: [][]int{{d.n}}}).End()
	}
	backend.CollectIfDue()
	buf := s.be.AllocUninit(backend.F32, d.n)
	s.be.(backend.ElementwiseOps).Elementwise(buf, d.program(), d.n)
	s.buf = buf
	s.pending = nil
	s.lazy.And(^uint32(lazyPending))
}

// program is d as the backend runs it.
func (d *deferred) program() *backend.Elementwise {
	p := &backend.Elementwise{Inputs: make([]backend.ElementwiseInput, len(d.inputs)), Steps: d.steps}
	for i, in := range d.inputs {
		p.Inputs[i] = backend.ElementwiseInput{Buf: in.st.buf, Offset: in.offset}
	}
	return p
}

// addReader records that r's deferred reads s, dropping the readers collected or computed.
func (s *storage) addReader(r *storage) {
	s.mu.Lock()
	if len(s.readers) == cap(s.readers) && len(s.readers) >= 8 {
		s.readers = slices.DeleteFunc(s.readers, func(w weak.Pointer[storage]) bool {
			v := w.Value()
			return v == nil || v.lazy.Load()&lazyPending == 0
		})
	}
	s.readers = append(s.readers, weak.Make(r))
	s.lazy.Or(lazyReaders)
	s.mu.Unlock()
}

// pendingOf returns the deferred t's elements are, when t views all of them in order; nil when
// t's storage is materialised (or t a part of it).
func (t *Tensor) pendingOf() *deferred {
	if t.st.lazy.Load()&lazyPending == 0 {
		return nil
	}
	t.st.mu.Lock()
	d := t.st.pending
	t.st.mu.Unlock()
	if d == nil || t.offset != 0 || d.n != t.Numel() || !t.isContiguous() {
		return nil
	}
	return d
}

// deferrable reports whether an elementwise op may defer on operand t.
func (t *Tensor) deferrable() bool {
	if t.released || t.requiresGrad || t.dtype != Float32 || t.Numel() < deferMin || !t.isContiguous() || t.st.exported.Load() {
		return false
	}
	_, ok := t.be().(backend.ElementwiseOps)
	return ok
}

// chain builds a deferred from operands and their own deferreds.
type chain struct {
	d       deferred
	inlined map[*deferred]int // a deferred operand's result step
	be      backend.Backend
	dev     Device
}

// operand adds t to the chain and returns its operand number: t's own steps when it is a
// deferred the chain has room for, else t computed and read as an input.
func (c *chain) operand(t *Tensor) int {
	if p := t.pendingOf(); p != nil {
		if step, ok := c.inlined[p]; ok {
			return step
		}
		if len(c.d.steps)+len(p.steps) < deferMaxSteps && len(c.d.inputs)+len(p.inputs) <= deferMaxInputs {
			return c.inline(p)
		}
	}
	t.st.materialise()
	return c.input(t.st, t.offset)
}

func (c *chain) input(st *storage, offset int) int {
	for i, in := range c.d.inputs {
		if in.st == st && in.offset == offset {
			return -1 - i
		}
	}
	c.d.inputs = append(c.d.inputs, deferredInput{st, offset})
	return -len(c.d.inputs)
}

// inline appends p's steps, renumbered, and returns the number of its result.
func (c *chain) inline(p *deferred) int {
	ins := make([]int, len(p.inputs))
	for i, in := range p.inputs {
		ins[i] = c.input(in.st, in.offset)
	}
	base := len(c.d.steps)
	renumber := func(a int) int {
		if a < 0 {
			return ins[-1-a]
		}
		return base + a
	}
	for _, s := range p.steps {
		s.A = renumber(s.A)
		if s.Binary {
			s.B = renumber(s.B)
		}
		c.d.steps = append(c.d.steps, s)
	}
	if c.inlined == nil {
		c.inlined = map[*deferred]int{}
	}
	c.inlined[p] = len(c.d.steps) - 1
	return len(c.d.steps) - 1
}

// tensor returns a tensor of shape whose elements are the chain's last step, registered with the
// storages it reads.
func (c *chain) tensor(shape []int) *Tensor {
	c.d.n = numel(shape)
	st := &storage{be: c.be}
	st.refs.Store(1)
	st.pending = &c.d
	st.lazy.Store(lazyPending)
	for _, in := range c.d.inputs {
		in.st.addReader(st)
	}
	shape = slices.Clone(shape)
	return &Tensor{st: st, dev: c.dev, dtype: Float32, shape: shape, strides: contiguousStrides(shape)}
}

// deferBinary returns a deferred a op b, or nil when the op runs now (a small result, an operand
// that needs a gradient, broadcasting, another type or device).
func deferBinary(op backend.BinaryOp, a, b *Tensor) *Tensor {
	if !a.deferrable() || !b.deferrable() || !slices.Equal(a.shape, b.shape) || !sameDevice(a.dev, b.dev) {
		return nil
	}
	c := &chain{be: a.be(), dev: a.dev}
	x := c.operand(a)
	y := c.operand(b)
	c.d.steps = append(c.d.steps, backend.ElementwiseStep{Binary: true, BinaryOp: op, A: x, B: y})
	return c.tensor(a.shape)
}

// deferUnary returns a deferred op(t) with parameters p and q, or nil when the op runs now.
func deferUnary(op backend.UnaryOp, t *Tensor, p, q float64) *Tensor {
	if !t.deferrable() {
		return nil
	}
	c := &chain{be: t.be(), dev: t.dev}
	x := c.operand(t)
	c.d.steps = append(c.d.steps, backend.ElementwiseStep{Unary: op, P: p, Q: q, A: x})
	return c.tensor(t.shape)
}

// deferredSum returns the sum of all of t's elements without writing them when they are
// deferred (as Reduce would give it), or false when they are not.
func deferredSum(t *Tensor) (float32, bool) {
	p := t.pendingOf()
	if p == nil {
		return 0, false
	}
	s := t.be().(backend.ElementwiseOps).ElementwiseSum(p.program(), p.n)
	keep(t)
	return float32(s), true
}
