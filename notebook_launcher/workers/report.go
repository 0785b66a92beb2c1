package workers

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Places maps what workers report to the user's code: Line turns a rank's
// program line (RankStatus.Line, an interpreted worker's last statement)
// into a place such as "cell [3], line 14: time.Sleep(d)"; Translate
// rewrites the positions in stack text. Either may be nil.
type Places struct {
	Line      func(line int) string
	Translate func(text string) string
}

// At is where line n of a worker's program is ("" when unknown).
func (p Places) At(n int) string {
	if n <= 0 || p.Line == nil {
		return ""
	}
	return p.Line(n)
}

// Map rewrites the positions in s.
func (p Places) Map(s string) string {
	if p.Translate == nil {
		return s
	}
	return p.Translate(s)
}

// Text is the stall's report for the user: which collective waits, which
// ranks have not joined it, and where each of them is, with its goroutine
// stacks.
func (s Stall) Text(p Places) string {
	var b strings.Builder
	fmt.Fprintf(&b, "goaccel: %s #%d has waited %s, longer than the %s threshold, on %s", s.Collective, s.Seq, seconds(s.Waited), seconds(s.Threshold), ranks(s.Waiting))
	switch {
	case len(s.Missing) > 0:
		verb := "has"
		if len(s.Missing) > 1 {
			verb = "have"
		}
		missing := make([]int, len(s.Missing))
		for i, r := range s.Missing {
			missing[i] = r.Rank
		}
		fmt.Fprintf(&b, "; %s %s not joined it.\n", ranks(missing), verb)
	case s.Elsewhere > 0:
		b.WriteString("; every rank on this machine joined it: the ranks missing run on other machines, whose launchers report them.\n")
	default:
		b.WriteString("; every rank joined it: the transfer itself is slow (a large collective, or the network between the ranks).\n")
	}
	for _, r := range s.Missing {
		fmt.Fprintf(&b, "  rank %d is %s", r.Rank, r.where())
		if at := p.At(r.Line); at != "" {
			fmt.Fprintf(&b, ", at %s", at)
		}
		b.WriteString("\n")
		if st := userStacks(r.Stacks); st != "" {
			b.WriteString(indentLines(p.Map(st), "    "))
		} else if r.Exited == "" {
			b.WriteString("    (it sent no stacks within 3 s)\n")
		}
	}
	if s.Elsewhere > 0 && len(s.Missing) > 0 {
		fmt.Fprintf(&b, "  (%d more ranks run on other machines; their launchers report them)\n", s.Elsewhere)
	}
	if len(s.Missing) > 0 {
		b.WriteString("A collective waits until every rank joins it, at most the group's timeout (30 minutes unless InitProcessGroup.Timeout says otherwise). " +
			"Look at where the missing ranks are: a branch only some ranks take, a rank that returned early or loads data slowly.\n")
	}
	return b.String()
}

// where says what a rank missing from a collective does instead.
func (r RankStatus) where() string {
	switch {
	case r.Exited != "":
		return "gone: it " + r.Exited
	case !r.Reported:
		return "still starting"
	case r.Collective != "":
		return fmt.Sprintf("in another collective, %s (its #%d), for %s: the ranks called different collectives", r.Collective, r.Seq, seconds(r.Waited))
	}
	return fmt.Sprintf("%s, in no collective (it has been through %d)", r.Phase, r.Seq)
}

// ranks writes "rank 3" or "ranks 0, 2 and 5".
func ranks(rs []int) string {
	switch len(rs) {
	case 0:
		return "no rank"
	case 1:
		return fmt.Sprintf("rank %d", rs[0])
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprint(r)
	}
	return "ranks " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func indentLines(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

// machinery are the packages whose frames say nothing about where a
// rank's training is: the runtime, reflection, the interpreter and
// goaccel's worker harness.
var machinery = []string{
	"runtime.", "reflect.", "internal/", "sync.", "os/signal.", "github.com/traefik/yaegi",
	"github.com/goaccel/goaccel/internal/", "github.com/goaccel/goaccel/dist/internal/",
	"github.com/goaccel/goaccel/notebook_launcher/job.",
	"github.com/goaccel/goaccel/kernel/internal/launch.",
}

// userStacks keeps, of a runtime.Stack dump, the goroutines that run
// something besides the machinery, each with those frames only (as
// "function  file:line"), at most 8 goroutines of 12 frames.
func userStacks(dump string) string {
	var b strings.Builder
	kept := 0
	for _, g := range strings.Split(strings.TrimSpace(dump), "\n\n") {
		lines := strings.Split(g, "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "goroutine ") {
			continue
		}
		var frames []string
		for i := 1; i+1 < len(lines); i += 2 {
			fn, loc := lines[i], strings.TrimSpace(lines[i+1])
			if strings.HasPrefix(fn, "created by ") || isMachinery(fn) {
				continue
			}
			if p := strings.LastIndex(fn, "("); p > 0 {
				fn = fn[:p]
			}
			if sp := strings.IndexByte(loc, ' '); sp > 0 {
				loc = loc[:sp]
			}
			frames = append(frames, fn+"  "+filepath.Base(loc))
		}
		if len(frames) == 0 {
			continue
		}
		if kept++; kept > 8 {
			b.WriteString("…\n")
			break
		}
		b.WriteString(lines[0] + "\n")
		for i, f := range frames {
			if i == 12 {
				b.WriteString("  …\n")
				break
			}
			b.WriteString("  " + f + "\n")
		}
	}
	return b.String()
}

func isMachinery(fn string) bool {
	for _, p := range machinery {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// Text is the status table as plain text, one line per rank.
func (g GroupStatus) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-5s %8s %10s  %-9s %s\n", "rank", "step", "samples/s", "memory", "doing")
	for _, r := range g.Ranks {
		fmt.Fprintf(&b, "%-5d %8d %10.0f  %-9s %s\n", r.Rank, r.Step, r.SamplesPerSec, Bytes(r.RSS), r.Doing())
	}
	switch {
	case g.StopNote() != "":
		b.WriteString(g.StopNote() + "\n")
	case g.Restart > 0:
		fmt.Fprintf(&b, "restart %d\n", g.Restart)
	}
	return b.String()
}

// StopNote says what the stop requested does, or did once every worker
// exited ("" when none was requested).
func (g GroupStatus) StopNote() string {
	ended := g.Ended()
	switch {
	case g.Stopping == StopSave && ended:
		return "stopped on request: each worker saved its state at a step boundary"
	case g.Stopping == StopSave:
		return "stopping: each worker saves its state at its next step boundary"
	case g.Stopping == StopFinish && ended:
		return "stopped on request: training ended early, at a step boundary"
	case g.Stopping == StopFinish:
		return "stopping: training ends at the next step boundary, then the run returns what it has"
	}
	return ""
}

// Ended reports whether every worker of the group exited.
func (g GroupStatus) Ended() bool {
	for _, r := range g.Ranks {
		if r.Exited == "" {
			return false
		}
	}
	return len(g.Ranks) > 0
}

// Bytes writes n as "512 MiB" or "1.2 GiB".
func Bytes(n uint64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%.0f GiB", float64(n)/(1<<30))
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
