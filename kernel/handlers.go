package kernel

import (
	"context"
	"runtime"
	"strings"

	"github.com/goaccel/goaccel/kernel/history"
	"github.com/goaccel/goaccel/kernel/wire"
)

// Version is goaccel's kernel implementation version.
const Version = "0.1.0"

// kernelInfo is the kernel_info_reply content.
func kernelInfo() map[string]any {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       wire.ProtocolVersion,
		"implementation":         "goaccel",
		"implementation_version": Version,
		"language_info": map[string]any{
			"name":               "go",
			"version":            strings.TrimPrefix(runtime.Version(), "go"),
			"mimetype":           "text/x-go",
			"file_extension":     ".go",
			"pygments_lexer":     "go",
			"codemirror_mode":    "go",
			"nbconvert_exporter": "script",
		},
		"banner":   "goaccel " + Version + ": Go cells interpreted by yaegi, state kept between cells. %help lists the magics.",
		"debugger": false,
		"help_links": []map[string]string{
			{"text": "Go standard library", "url": "https://pkg.go.dev/std"},
		},
	}
}

func (k *Kernel) handleIsComplete(ctx context.Context, m *wire.Message) {
	var req struct {
		Code string `json:"code"`
	}
	if err := m.Unmarshal(&req); err != nil {
		k.log.Warn("bad is_complete_request", "err", err)
		k.reply(k.shell, m, "is_complete_reply", map[string]any{"status": "unknown"})
		return
	}
	status, indent, err := k.exec.IsComplete(ctx, req.Code)
	if err != nil {
		k.log.Warn("is_complete", "err", err)
		status = "unknown"
	}
	content := map[string]any{"status": status}
	if status == "incomplete" {
		content["indent"] = indent
	}
	k.reply(k.shell, m, "is_complete_reply", content)
}

func (k *Kernel) handleComplete(ctx context.Context, m *wire.Message) {
	var req struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	if err := m.Unmarshal(&req); err != nil {
		k.log.Warn("bad complete_request", "err", err)
	}
	matches, start, end, err := k.exec.Complete(ctx, req.Code, req.CursorPos)
	if err != nil {
		k.log.Warn("complete", "err", err)
		start, end = req.CursorPos, req.CursorPos
	}
	if matches == nil {
		matches = []string{}
	}
	k.reply(k.shell, m, "complete_reply", map[string]any{
		"status": "ok", "matches": matches, "cursor_start": start, "cursor_end": end, "metadata": map[string]any{},
	})
}

func (k *Kernel) handleInspect(ctx context.Context, m *wire.Message) {
	var req struct {
		Code        string `json:"code"`
		CursorPos   int    `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if err := m.Unmarshal(&req); err != nil {
		k.log.Warn("bad inspect_request", "err", err)
	}
	found, data, err := k.exec.Inspect(ctx, req.Code, req.CursorPos, req.DetailLevel)
	if err != nil {
		k.log.Warn("inspect", "err", err)
		found, data = false, nil
	}
	if data == nil {
		data = map[string]any{}
	}
	k.reply(k.shell, m, "inspect_reply", map[string]any{
		"status": "ok", "found": found, "data": data, "metadata": map[string]any{},
	})
}

// historyRequest is the content of history_request.
type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func (k *Kernel) handleHistory(m *wire.Message) {
	var req historyRequest
	if err := m.Unmarshal(&req); err != nil {
		k.reply(k.shell, m, "history_reply", map[string]any{"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{}, "history": []any{}})
		return
	}
	content, err := historyReply(k.hist, req)
	if err != nil {
		k.reply(k.shell, m, "history_reply", map[string]any{"status": "error", "ename": "BadPattern", "evalue": err.Error(), "traceback": []string{}, "history": []any{}})
		return
	}
	k.reply(k.shell, m, "history_reply", content)
}

// historyReply answers req from h.
func historyReply(h *history.Store, req historyRequest) (map[string]any, error) {
	var entries []history.Entry
	switch req.HistAccessType {
	case "tail", "":
		entries = h.Tail(req.N)
	case "range":
		entries = h.Range(req.Session, req.Start, req.Stop)
	case "search":
		var err error
		if entries, err = h.Search(req.Pattern, req.N, req.Unique); err != nil {
			return nil, err
		}
	}
	return map[string]any{"status": "ok", "history": history.Tuples(entries, req.Output)}, nil
}

func (k *Kernel) handleInterrupt(ch *channel, m *wire.Message) {
	k.exec.Interrupt()
	k.reply(ch, m, "interrupt_reply", map[string]any{"status": "ok"})
}

// handleShutdown replies; the caller then stops the kernel. With restart set, Jupyter's
// kernel manager starts a fresh kernel process; this one exits either way.
func (k *Kernel) handleShutdown(ch *channel, m *wire.Message) {
	var req struct {
		Restart bool `json:"restart"`
	}
	if err := m.Unmarshal(&req); err != nil {
		k.log.Warn("bad shutdown_request", "err", err)
	}
	content := map[string]any{"status": "ok", "restart": req.Restart}
	k.reply(ch, m, "shutdown_reply", content)
	k.publish("shutdown_reply", &m.Header, content)
}
