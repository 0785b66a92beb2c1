package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/goaccel/goaccel/display"
)

// Options configures a bar made with New or Bar.New.
type Options struct {
	// Desc labels the bar ("epoch", "train").
	Desc string
	// Total is the expected count; 0 when unknown (no percentage, no time left).
	Total int
	// Unit names what is counted in the rate ("it" when empty).
	Unit string
	// Interval is the shortest time between two redraws: 100 ms in a
	// notebook or a terminal, 10 s in a log when zero.
	Interval time.Duration
	// Output receives a terminal's or a log's lines; os.Stderr when nil.
	// (Under a notebook cell the bar is a display and Output is not used.)
	Output io.Writer
	// Disable draws nothing; the bar still counts.
	Disable bool
	// AllRanks draws on every process of a data-parallel job, not only on
	// the local main one.
	AllRanks bool
	// Widget draws the bar under a notebook cell as Jupyter widgets (a
	// label, a Progress and the counts in a row, as tqdm.notebook), updated
	// over their comms, instead of an HTML display updated in place. An
	// executed notebook then keeps the widgets' state, which nbconvert's
	// HTML shows only with the widgets' JavaScript; the default HTML bar
	// shows everywhere.
	Widget bool
}

// Iterator is what Over wraps: a data.Loader, or anything that advances
// with Next. When it also has a Len() int method, that is the bar's total.
type Iterator interface {
	Next() bool
}

// Bar is one progress bar. Its methods are safe for use by several
// goroutines.
type Bar struct {
	t      *tree
	parent *Bar
	depth  int
	opts   Options
	it     Iterator

	n       int // items done
	started bool
	closed  bool
	start   time.Time
	drawn   time.Time // last redraw
	post    []postfix
	child   *Bar // the open nested bar, if any
}

type postfix struct {
	key string
	val any
}

// New returns a bar configured by opts and draws it.
func New(opts Options) *Bar {
	return newRoot(opts, chooseOutput(opts), time.Now)
}

// Range returns a bar that counts n steps: for bar.Next() { i := bar.Index() }.
func Range(n int, desc string) *Bar {
	return New(Options{Total: max(n, 0), Desc: desc})
}

// Over returns a bar that advances it (a data.Loader, say) with each Next;
// the total is it.Len() when it has that method.
func Over(it Iterator, desc string) *Bar {
	b := New(Options{Total: lenOf(it), Desc: desc})
	b.t.mu.Lock()
	b.it = it
	b.t.mu.Unlock()
	return b
}

// New returns a bar nested in b (the batches of an epoch): it shows under
// b in a notebook, after b on a terminal's line, and takes the place of the
// previous nested bar. It draws where b draws, whatever opts says.
func (b *Bar) New(opts Options) *Bar {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	opts.Output, opts.Disable, opts.AllRanks, opts.Widget = b.opts.Output, b.opts.Disable, b.opts.AllRanks, b.opts.Widget
	if opts.Interval == 0 {
		opts.Interval = b.opts.Interval
	}
	c := &Bar{t: b.t, parent: b, depth: b.depth + 1, opts: opts}
	if b.child != nil {
		b.child.closed = true // replaced: the new bar takes its place
	}
	b.child = c
	c.begin()
	return c
}

// Range returns a bar nested in b that counts n steps.
func (b *Bar) Range(n int, desc string) *Bar {
	return b.New(Options{Total: max(n, 0), Desc: desc})
}

// Over returns a bar nested in b that advances it with each Next.
func (b *Bar) Over(it Iterator, desc string) *Bar {
	c := b.New(Options{Total: lenOf(it), Desc: desc})
	c.t.mu.Lock()
	c.it = it
	c.t.mu.Unlock()
	return c
}

func lenOf(it Iterator) int {
	if l, ok := it.(interface{ Len() int }); ok {
		return max(l.Len(), 0)
	}
	return 0
}

// newRoot makes a top-level bar drawing to out on the clock now.
func newRoot(opts Options, out output, now func() time.Time) *Bar {
	b := &Bar{t: &tree{out: out, now: now}, opts: opts}
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	b.begin()
	return b
}

// begin starts the clock and draws the empty bar (t.mu held).
func (b *Bar) begin() {
	b.start = b.t.now()
	b.t.draw(b, false)
}

// Next counts the item of the previous call as done and moves to the next
// one: it advances the wrapped iterator (Over) or the count (Range). It
// returns false, and draws the bar's final state, when there is none.
func (b *Bar) Next() bool {
	b.t.mu.Lock()
	if b.started {
		b.n++
	}
	b.started = true
	it := b.it
	done := b.closed || (it == nil && b.opts.Total > 0 && b.n >= b.opts.Total) || (it == nil && b.opts.Total == 0)
	b.t.mu.Unlock()
	if !done && it != nil {
		done = !it.Next() // outside the lock: a loader may take a while
	}
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	if done {
		b.finish()
		return false
	}
	b.t.draw(b, false)
	return true
}

// Index is the 0-based index of the item Next moved to.
func (b *Bar) Index() int {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	return b.n
}

// N is the number of items done.
func (b *Bar) N() int {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	return b.n
}

// Add counts n more items done, for bars driven by hand (New), e.g.
// bar.Add(len(batch)) with a total in samples.
func (b *Bar) Add(n int) {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	b.n += n
	b.t.draw(b, false)
}

// Set shows key=value after the rate (tqdm's postfix), e.g.
// bar.Set("loss", loss.Item()); floats show with 4 significant digits.
// It takes effect at the next redraw.
func (b *Bar) Set(key string, value any) {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	for i := range b.post {
		if b.post[i].key == key {
			b.post[i].val = value
			return
		}
	}
	b.post = append(b.post, postfix{key, value})
}

// SetDesc changes the bar's label.
func (b *Bar) SetDesc(desc string) {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	b.opts.Desc = desc
}

// Close draws the bar's final state; a bar whose loop ran to its end is
// closed already. Closing twice does nothing.
func (b *Bar) Close() {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	b.finish()
}

// finish closes the bar and its open nested bar (t.mu held).
func (b *Bar) finish() {
	if b.closed {
		return
	}
	if b.child != nil {
		b.child.finish()
	}
	b.closed = true
	b.t.draw(b, true)
	if b.parent != nil && b.parent.child == b {
		b.parent.child = nil
	}
}

// String is the bar as one line of text, as a terminal shows it.
func (b *Bar) String() string {
	b.t.mu.Lock()
	defer b.t.mu.Unlock()
	return b.line(b.t.now())
}

// elapsed returns the time since the bar began.
func (b *Bar) elapsed(now time.Time) time.Duration { return now.Sub(b.start) }

// unit is the counted thing's name.
func (b *Bar) unit() string {
	if b.opts.Unit == "" {
		return "it"
	}
	return b.opts.Unit
}

func (p postfix) String() string {
	switch v := p.val.(type) {
	case float64:
		return fmt.Sprintf("%s=%.4g", p.key, v)
	case float32:
		return fmt.Sprintf("%s=%.4g", p.key, v)
	}
	return fmt.Sprintf("%s=%v", p.key, p.val)
}

// tree is what a bar and its nested bars share: one lock, one output.
type tree struct {
	mu      sync.Mutex
	out     output
	handles []*display.Handle // notebook: one display per nesting depth
	widgets []*barWidget      // widget: one row per nesting depth
	now     func() time.Time
}
