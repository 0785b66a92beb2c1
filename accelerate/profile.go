package accelerate

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/profiling"
)

// ProfileKwargs configures Profile (Accelerate's ProfileKwargs).
type ProfileKwargs struct {
	// OutputTraceDir is where every process writes its Chrome trace, profile_<rank>.json
	// (Accelerate's output_trace_dir, PROFILE_PATTERN_NAME), and, with several processes, the
	// main process profile_all.json: every process's events on one time line. "" writes no
	// file.
	OutputTraceDir string
	// RowLimit is how many rows the table of top ops shows (0: 15).
	RowLimit int
	// MaxEvents bounds the events a process keeps (0: 4 million, about 1 GB); the later ones
	// are counted as dropped.
	MaxEvents int
}

// ProfileResult is what Profile recorded on this process.
type ProfileResult struct {
	rec     *profiling.Recorder
	rank    int
	elapsed time.Duration
	rows    int
	// TracePath is the Chrome trace this process wrote ("" without OutputTraceDir), and
	// MergedTracePath the main process's trace of every process ("" elsewhere).
	TracePath, MergedTracePath string
}

// ProfileRow is one op (or collective, backward node, data loading) summed over the profile.
type ProfileRow struct {
	Name string
	// Category is "op", "backward" (a node of the backward pass), "collective", "wait" (for an
	// asynchronous collective), "data" (a loader handing out a batch) or "step" (the profiled
	// function itself: its self time is the time spent outside every recorded op).
	Category string
	Calls    int
	Total    time.Duration // the events' durations, nested events included
	Self     time.Duration // less the events nested in them
}

// Profile runs fn while recording, per process, every tensor op (name, device, dtype, operand
// shapes, duration), every node of the backward pass, every collective of the process group
// (with the time it queued behind another collective of this process), every wait for an
// asynchronous all-reduce and every batch a data loader handed out, each on the goroutine that
// ran it: Accelerate's `with accelerator.profile(kwargs) as prof:`. Every process must call it.
// With cfg.OutputTraceDir each process writes a Chrome trace (open it in Perfetto, ui.perfetto.dev,
// or chrome://tracing) and the main process one of the whole group; under a notebook the main
// process shows the table of top ops under the cell.
//
// While no profile runs the hooks cost one atomic load per op. While one runs, each event
// costs a few microseconds (mostly finding the goroutine's number), which a step of small ops
// feels: the README states the overhead measured on MNIST. The recording is process-wide, as
// PyTorch's profiler: other goroutines' ops are recorded too, and one profile runs at a time.
func (a *Accelerator) Profile(cfg ProfileKwargs, fn func()) *ProfileResult {
	rec := profiling.NewRecorder()
	rec.Limit = cfg.MaxEvents
	if err := profiling.Install(rec); err != nil {
		panic("accelerate: Profile: " + err.Error() + " (Profile inside Profile?)")
	}
	start := time.Now()
	func() {
		defer profiling.Uninstall(rec)
		defer rec.Start(profiling.CatStep, "Profile", profiling.Args{}).End()
		fn()
	}()
	res := &ProfileResult{rec: rec, rank: a.ProcessIndex(), elapsed: time.Since(start), rows: cfg.RowLimit}
	if cfg.OutputTraceDir != "" {
		must(a.writeTraces(res, cfg.OutputTraceDir), "Profile: write the traces")
	}
	if a.IsMainProcess() && host.Current().InNotebook() {
		_ = display.HTML(res.HTML())
	}
	return res
}

// writeTraces writes this process's trace and, on the main process, the merged one; every
// process takes part (the traces are gathered to every process, the others discard them).
func (a *Accelerator) writeTraces(res *ProfileResult, dir string) error {
	err := os.MkdirAll(dir, 0o755)
	var b bytes.Buffer
	if err == nil {
		err = res.rec.WriteChromeTrace(&b, res.rank, fmt.Sprintf("rank %d", res.rank))
	}
	if err == nil {
		res.TracePath = filepath.Join(dir, fmt.Sprintf("profile_%d.json", res.rank))
		err = os.WriteFile(res.TracePath, b.Bytes(), 0o644)
	}
	if err = a.agree(err); err != nil || a.c.Size() == 1 {
		return err
	}
	all, err := a.c.AllGatherBytes(b.Bytes())
	if err != nil || !a.IsMainProcess() {
		return err
	}
	var m bytes.Buffer
	if err := profiling.Merge(&m, all); err != nil {
		return err
	}
	res.MergedTracePath = filepath.Join(dir, "profile_all.json")
	return os.WriteFile(res.MergedTracePath, m.Bytes(), 0o644)
}

// Rows returns every op, backward node, collective, wait and loader summed by name, largest
// self time first (torch.profiler's key_averages()).
func (p *ProfileResult) Rows() []ProfileRow {
	var out []ProfileRow
	for _, r := range p.rec.Summary() {
		out = append(out, ProfileRow{Name: r.Name, Category: r.Cat, Calls: r.Calls, Total: r.Total, Self: r.Self})
	}
	return out
}

// Elapsed is how long fn ran.
func (p *ProfileResult) Elapsed() time.Duration { return p.elapsed }

// WriteChromeTrace writes this process's events as a Chrome trace to path.
func (p *ProfileResult) WriteChromeTrace(path string) error {
	var b bytes.Buffer
	if err := p.rec.WriteChromeTrace(&b, p.rank, fmt.Sprintf("rank %d", p.rank)); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// top returns the table's rows and the caption.
func (p *ProfileResult) top() ([]ProfileRow, string) {
	rows := p.Rows()
	limit := p.rows
	if limit <= 0 {
		limit = 15
	}
	n := len(rows)
	rows = rows[:min(limit, n)]
	_, dropped := p.rec.Events()
	caption := fmt.Sprintf("rank %d: %v profiled, top %d of %d by self time", p.rank, p.elapsed.Round(time.Microsecond), len(rows), n)
	if dropped > 0 {
		caption += fmt.Sprintf(" (%d events dropped over ProfileKwargs.MaxEvents)", dropped)
	}
	return rows, caption
}

func (p *ProfileResult) percent(d time.Duration) float64 {
	if p.elapsed <= 0 {
		return 0
	}
	return 100 * float64(d) / float64(p.elapsed)
}

// Table is the top ops as text (key_averages().table(sort_by="self_cpu_time_total")): name,
// category, self time and its share of the profile, total time, calls and time per call.
func (p *ProfileResult) Table() string {
	rows, caption := p.top()
	var b strings.Builder
	fmt.Fprintln(&b, caption)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "Name\tCategory\tSelf\tSelf %\tTotal\tCalls\tPer call\t")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%v\t%.1f%%\t%v\t%d\t%v\t\n", r.Name, r.Category, r.Self.Round(time.Microsecond), p.percent(r.Self),
			r.Total.Round(time.Microsecond), r.Calls, (r.Total / time.Duration(r.Calls)).Round(100*time.Nanosecond))
	}
	w.Flush()
	return b.String()
}

// String is Table.
func (p *ProfileResult) String() string { return p.Table() }

// HTML is the top ops as an HTML table (what Profile shows under a notebook cell).
func (p *ProfileResult) HTML() string {
	rows, caption := p.top()
	var b strings.Builder
	fmt.Fprintf(&b, "<table><caption>%s</caption><thead><tr><th>Name</th><th>Category</th><th>Self</th><th>Self %%</th><th>Total</th><th>Calls</th><th>Per call</th></tr></thead><tbody>", html.EscapeString(caption))
	for _, r := range rows {
		fmt.Fprintf(&b, "<tr><td style=\"text-align:left\">%s</td><td>%s</td><td>%v</td><td>%.1f%%</td><td>%v</td><td>%d</td><td>%v</td></tr>", html.EscapeString(r.Name), r.Category,
			r.Self.Round(time.Microsecond), p.percent(r.Self), r.Total.Round(time.Microsecond), r.Calls, (r.Total / time.Duration(r.Calls)).Round(100*time.Nanosecond))
	}
	b.WriteString("</tbody></table>")
	return b.String()
}
