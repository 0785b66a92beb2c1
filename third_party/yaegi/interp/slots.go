//go:build go1.24

package interp

// goaccel: the global frame stays as large as the slots in use. Every
// evaluation at the top level takes new slots at the end of the global
// frame for the intermediate values of its statements; they were never
// given back, so a REPL re-running a cell grew the frame for ever, and every
// function literal made at the top level copied all of it (a notebook's
// closures took longer with each cell run before). The frame now shrinks
// back over the slots at its end that no name refers to and no Program
// that could still run took: the next evaluation takes them again, in
// order, as the consecutive slots a call's results need.

import (
	"go/ast"
	"runtime"
	"sync"
)

// slotPool tracks which slots of the global frame the Programs that may
// still run took. The global scopes share it (scope.slots).
type slotPool struct {
	mu      sync.Mutex
	taking  []int        // the slots taken since the compilation in progress began
	owned   map[int]bool // slots of Programs that may still run, or taken outside any compilation
	pending [][]int      // the slots of Programs done, to give back (shrinkFrame)
}

func newSlotPool() *slotPool { return &slotPool{owned: map[int]bool{}} }

// took counts a new slot as the compilation's.
func (p *slotPool) took(i int) {
	p.mu.Lock()
	p.taking = append(p.taking, i)
	p.mu.Unlock()
}

// taken returns the slots taken since the last call and marks them owned.
func (p *slotPool) taken() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.taking
	p.taking = nil
	for _, i := range t {
		p.owned[i] = true
	}
	return t
}

// programSlots are the slots a Program's compilation took, which go back
// once the Program is done (Done, or garbage) and no execution of it is in
// progress.
type programSlots struct {
	pool    *slotPool
	slots   []int
	running int  // executions in progress, under pool.mu
	done    bool // no execution will start
	back    bool // the slots went back
}

// giveBack queues the slots for shrinkFrame once the Program is done and
// not running (called with pool.mu held).
func (ps *programSlots) giveBack() {
	if ps.done && ps.running == 0 && !ps.back {
		ps.back = true
		ps.pool.pending = append(ps.pool.pending, ps.slots)
	}
}

// started counts an execution and returns its end.
func (ps *programSlots) started() (ended func()) {
	if ps == nil {
		return func() {}
	}
	ps.pool.mu.Lock()
	ps.running++
	ps.pool.mu.Unlock()
	return func() {
		ps.pool.mu.Lock()
		ps.running--
		ps.giveBack()
		ps.pool.mu.Unlock()
	}
}

func (ps *programSlots) finish() {
	if ps == nil {
		return
	}
	ps.pool.mu.Lock()
	ps.done = true
	ps.giveBack()
	ps.pool.mu.Unlock()
}

// Done says that p will not be executed again (goaccel): once no execution
// of it is in progress, the slots of the global frame its compilation took
// for the intermediate values of its statements are taken again by the
// evaluations to come (a Program the garbage collector finds unreachable is
// done too). Eval does it for the Programs it compiles.
func (p *Program) Done() { p.slots.finish() }

// compileTakingSlots is CompileAST: it gives back the slots at the end of
// the frame that nothing uses, then compiles n, the Program owning the
// slots the compilation takes until it is done.
func (interp *Interpreter) compileTakingSlots(n ast.Node) (*Program, error) {
	pool := interp.universe.slots
	pool.taken() // slots taken outside a compilation stay owned for ever
	interp.shrinkFrame()
	prog, err := interp.compileAST(n)
	ps := &programSlots{pool: pool, slots: pool.taken()}
	if prog == nil {
		ps.finish() // nothing will run: its slots go back, unless a name took them
		return prog, err
	}
	prog.slots = ps
	runtime.AddCleanup(prog, (*programSlots).finish, ps)
	return prog, err
}

// shrinkFrame gives back the slots at the end of the global frame that no
// symbol names and no Program that may still run took: the global scopes'
// frame layout is cut back to before them. It runs before a compilation
// (which reads and changes the scopes).
func (interp *Interpreter) shrinkFrame() {
	pool := interp.universe.slots
	pool.mu.Lock()
	pending := pool.pending
	pool.pending = nil
	for _, slots := range pending {
		for _, j := range slots {
			delete(pool.owned, j)
		}
	}
	pool.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	named := interp.namedSlots()
	pool.mu.Lock()
	l := len(interp.universe.types)
	for l > 0 && !pool.owned[l-1] && !named[l-1] {
		l--
	}
	pool.mu.Unlock()
	if l == len(interp.universe.types) {
		return
	}
	interp.mutex.Lock()
	interp.universe.types = interp.universe.types[:l]
	for _, sc := range interp.scopes {
		if sc.slots != nil && len(sc.types) > l {
			sc.types = sc.types[:l]
		}
	}
	interp.mutex.Unlock()
	f := interp.frame
	f.mutex.Lock()
	if interp.frameLen > l {
		// The slots keep the zero variables releaseTemps gave them until
		// resizeFrame gives them their next type.
		interp.frameLen = l
		f.used = l
	}
	f.mutex.Unlock()
}

// namedSlots returns the slots of the global frame that a package-level
// symbol names.
func (interp *Interpreter) namedSlots() map[int]bool {
	interp.mutex.RLock()
	defer interp.mutex.RUnlock()
	named := map[int]bool{}
	for _, sc := range interp.scopes {
		for _, sym := range sc.sym {
			if sym.kind == varSym || sym.kind == constSym || sym.kind == funcSym {
				named[sym.index] = true
			}
		}
	}
	for _, sym := range interp.universe.sym {
		named[sym.index] = true
	}
	return named
}
