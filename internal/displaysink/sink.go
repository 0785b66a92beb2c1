package displaysink

import "sync/atomic"

// Sink publishes one iopub message from the current cell.
type Sink interface {
	// Send publishes one iopub message from the current cell: msgType is
	// "display_data", "update_display_data" or "clear_output"; content is that
	// message's content.
	Send(msgType string, content map[string]any)
}

// holder lets atomic.Value store a nil Sink and Sinks of different dynamic types.
type holder struct{ s Sink }

// current is the process-wide sink: there is one kernel per executor process.
var current atomic.Value

// Set installs s as the process's sink; Set(nil) removes it.
func Set(s Sink) { current.Store(holder{s}) }

// Get returns the installed sink, or nil outside a kernel.
func Get() Sink {
	h, _ := current.Load().(holder)
	return h.s
}
