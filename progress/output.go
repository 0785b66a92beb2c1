package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/internal/host"
)

// mode is where a bar tree draws.
type mode int

const (
	off      mode = iota // disabled, or not the local main process
	notebook             // an HTML display under the running cell
	widget               // Jupyter widgets under the running cell (Options.Widget)
	terminal             // one line rewritten with \r
	logLines             // plain lines, periodically
)

// Default intervals between redraws.
const (
	liveInterval = 100 * time.Millisecond
	logInterval  = 10 * time.Second
)

type output struct {
	mode mode
	w    io.Writer
}

// chooseOutput picks where bars draw: nowhere when disabled or not on the
// local main process; a display under a kernel; else Output (os.Stderr),
// rewritten in place when it is a terminal.
func chooseOutput(opts Options) output {
	if opts.Disable || (!opts.AllRanks && !localMain(os.LookupEnv)) {
		return output{mode: off}
	}
	if h := host.Current(); h.InNotebook() {
		if opts.Widget && h.Comms != nil {
			return output{mode: widget}
		}
		return output{mode: notebook}
	}
	w := opts.Output
	if w == nil {
		w = os.Stderr
	}
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		return output{mode: terminal, w: w}
	}
	return output{mode: logLines, w: w}
}

// rankVars are the launchers' variables that give a process's rank on its
// host, then in the job (torchrun and notebook_launcher, Open MPI, Slurm),
// as package dist reads them.
var rankVars = []string{"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"}

// localMain reports whether this process is its host's main process of a
// data-parallel job, or runs alone. A value that is not a number counts as
// the main process: a bar too many beats none.
func localMain(env func(string) (string, bool)) bool {
	for _, k := range rankVars {
		if v, ok := env(k); ok && strings.TrimSpace(v) != "" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return err != nil || n == 0
		}
	}
	return true
}

// interval is the shortest time between two redraws of b.
func (t *tree) interval(b *Bar) time.Duration {
	if b.opts.Interval > 0 {
		return b.opts.Interval
	}
	if t.out.mode == logLines {
		return logInterval
	}
	return liveInterval
}

// draw redraws b if a redraw is due, or always when final (t.mu held).
func (t *tree) draw(b *Bar, final bool) {
	if t.out.mode == off {
		return
	}
	now := t.now()
	first := b.drawn.IsZero()
	if !final && !first && now.Sub(b.drawn) < t.interval(b) {
		return
	}
	b.drawn = now
	switch t.out.mode {
	case notebook:
		t.drawNotebook(b, now)
	case widget:
		t.drawWidget(b, now)
	case terminal:
		fmt.Fprintf(t.out.w, "\r%s\x1b[K", t.chain(b, now))
		if final && b.parent == nil {
			fmt.Fprintln(t.out.w)
		}
	case logLines:
		if first && !final && b.parent != nil {
			return // a nested bar's start is no news in a log
		}
		fmt.Fprintln(t.out.w, t.chain(b, now))
	}
}

// chain is b's line preceded by its parents' short forms:
// "epoch 2/3 | train:  45%|…".
func (t *tree) chain(b *Bar, now time.Time) string {
	s := b.line(now)
	for p := b.parent; p != nil; p = p.parent {
		s = p.short() + " | " + s
	}
	return s
}

// drawNotebook shows b in the display of its nesting depth, made on first
// use and updated in place after: the nested bars of successive epochs take
// turns in one output.
func (t *tree) drawNotebook(b *Bar, now time.Time) {
	v := display.Bundle{"text/html": b.htmlBar(now), "text/plain": b.line(now)}
	if b.depth < len(t.handles) {
		_ = t.handles[b.depth].Update(v)
		return
	}
	for len(t.handles) < b.depth { // a parent that never drew (it cannot, but stay safe)
		t.handles = append(t.handles, display.New(display.Bundle{"text/plain": ""}))
	}
	t.handles = append(t.handles, display.New(v))
}
