package profiling

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"
)

// chromeEvent is one entry of the Chrome trace event format: a complete event ("X", with a
// duration) or metadata ("M": process and thread names).
type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`            // microseconds since the Unix epoch
	Dur  *float64       `json:"dur,omitempty"` // microseconds
	Pid  int            `json:"pid"`
	Tid  int64          `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// micros is d in microseconds.
func micros(d time.Duration) float64 { return float64(d) / 1e3 }

// WriteChromeTrace writes r's finished events as a Chrome trace ({"traceEvents": […]}):
// process pid, named label, one thread per goroutine. Timestamps are wall-clock microseconds,
// so the traces of a group's processes line up when merged.
func (r *Recorder) WriteChromeTrace(w io.Writer, pid int, label string) error {
	events, dropped := r.Events()
	base := float64(r.Begin.UnixNano()) / 1e3
	out := []chromeEvent{{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": label}},
		{Name: "process_sort_index", Ph: "M", Pid: pid, Args: map[string]any{"sort_index": pid}}}
	var gs []int64
	seen := map[int64]bool{}
	for _, e := range events {
		if !seen[e.Goroutine] {
			seen[e.Goroutine] = true
			gs = append(gs, e.Goroutine)
		}
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i] < gs[j] })
	for _, g := range gs {
		out = append(out, chromeEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: g, Args: map[string]any{"name": fmt.Sprintf("goroutine %d", g)}})
	}
	for _, e := range events {
		dur := micros(e.Dur)
		args := map[string]any{"self_us": micros(e.Self)}
		if e.Args.Device != "" {
			args["device"] = e.Args.Device
		}
		if e.Args.DType != "" {
			args["dtype"] = e.Args.DType
		}
		if e.Args.Shapes != nil {
			args["shapes"] = e.Args.Shapes
		}
		if e.Args.Bytes > 0 {
			args["bytes"] = e.Args.Bytes
		}
		if e.LockWait > 0 {
			args["queued_us"] = micros(e.LockWait)
		}
		out = append(out, chromeEvent{Name: e.Name, Cat: e.Cat, Ph: "X", Ts: base + micros(e.Start), Dur: &dur, Pid: pid, Tid: e.Goroutine, Args: args})
	}
	bw := bufio.NewWriter(w)
	other := map[string]any{"generator": "goaccel", "dropped_events": dropped}
	if err := writeTrace(bw, out, other); err != nil {
		return err
	}
	return bw.Flush()
}

// writeTrace writes events one per line (a trace of millions of events stays greppable).
func writeTrace[E any](w io.Writer, events []E, other map[string]any) error {
	if _, err := io.WriteString(w, `{"displayTimeUnit": "ms", "otherData": `); err != nil {
		return err
	}
	b, err := json.Marshal(other)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if _, err := io.WriteString(w, `, "traceEvents": [`); err != nil {
		return err
	}
	for i, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == 0 {
			sep = "\n"
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "\n]}\n")
	return err
}

// Merge writes one Chrome trace holding the events of every trace in traces (each one
// WriteChromeTrace wrote, a process each): the whole group on one time line.
func Merge(w io.Writer, traces [][]byte) error {
	var all []json.RawMessage
	for i, t := range traces {
		var doc struct {
			TraceEvents []json.RawMessage `json:"traceEvents"`
		}
		if err := json.Unmarshal(t, &doc); err != nil {
			return fmt.Errorf("profiling: trace %d: %w", i, err)
		}
		all = append(all, doc.TraceEvents...)
	}
	bw := bufio.NewWriter(w)
	if err := writeTrace(bw, all, map[string]any{"generator": "goaccel", "processes": len(traces)}); err != nil {
		return err
	}
	return bw.Flush()
}
