package kernel

import (
	"context"
	"encoding/json"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/kernel/wire"
)

// commTimeout bounds how long the shell reader waits for the executor to take
// a comm message or answer comm_info: it answers at once unless it is
// starting or dying.
const commTimeout = 30 * time.Second

// commRequest is the content of comm_open, comm_msg and comm_close.
type commRequest struct {
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name"`
	Data       map[string]any `json:"data"`
}

// handleComm delivers a comm message from the front end to the session at
// once, even while a cell runs (a running cell reads a widget's new value at
// once). It reports whether the message deferred work (widget callbacks,
// which run cell code): the shell worker runs it behind any running cell.
// A malformed message, or one to a comm the session lacks, is logged.
func (k *Kernel) handleComm(m *wire.Message) (deferred bool) {
	var c commRequest
	if err := m.Unmarshal(&c); err != nil {
		k.log.Warn("bad comm message; ignored", "msg_type", m.Header.MsgType, "err", err)
		return false
	}
	parent, err := json.Marshal(m.Header)
	if err != nil {
		k.log.Error("encode a comm message's header", "err", err)
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), commTimeout)
	defer cancel()
	n, err := k.exec.DeliverComm(ctx, comm.Message{
		Type: m.Header.MsgType, CommID: c.CommID, Target: c.TargetName, Data: c.Data,
		Metadata: m.Metadata, Buffers: m.Buffers, MsgID: m.Header.MsgID, Parent: parent,
	})
	if err != nil {
		k.log.Warn("comm message not taken", "msg_type", m.Header.MsgType, "comm_id", c.CommID, "target", c.TargetName, "err", err)
	}
	return n > 0
}

// runDeferred runs the work a comm message m deferred (its callbacks) as
// part of the request parent (m itself, or the request whose end it
// joined): what it prints and sends has parent as its parent, before
// parent's idle status (which the shell worker publishes after it). An
// error that ended it (an interrupt, a crashed executor) goes to stderr
// under the same parent; the session reports a callback's panic itself,
// where the callback's output goes.
func (k *Kernel) runDeferred(ctx context.Context, m *wire.Message, parent *wire.Header) {
	prev := k.setOutputParent(parent)
	defer k.setOutputParent(prev)
	out := k.exec.RunDeferred(ctx, m.Header.MsgID, parent.MsgID)
	if e := out.Result.Error; e != nil {
		k.publish("stream", parent, map[string]any{"name": "stderr", "text": e.Ename + ": " + e.Evalue + "\n"})
	}
}

// A tail is the request the shell worker runs now (a cell, or a comm
// message's callbacks): a comm message that defers callbacks while it runs
// joins it. The message is idle at once, and its callbacks run at the
// request's end, after its reply and before its idle, with the request as
// their parent. ipywidgets' front end sends a widget's next update only
// after the idle of its previous one, so an idle held until the cell ends
// would keep a running loop from seeing a widget that has a callback move;
// and the callbacks' output, which the callback area (an Output widget)
// shows by capturing what has its parent, needs a parent whose idle has
// not come (the front end stops routing a request's output at its idle).
type tail struct {
	parent *wire.Header
	msgs   []*wire.Message
}

// openTail lets comm messages join the request parent, which the shell
// worker starts running.
func (k *Kernel) openTail(parent *wire.Header) {
	k.tailMu.Lock()
	k.tail = &tail{parent: parent}
	k.tailMu.Unlock()
}

// joinTail adds m, a comm message that deferred work, to the running
// request's tail and publishes m's idle, then the running request's busy
// again (JupyterLab's kernel status follows the last status message, so it
// would show the kernel idle while the cell runs); false when no request
// takes m (it is queued instead). Under tailMu, so that the busy cannot
// follow the request's own idle.
func (k *Kernel) joinTail(m *wire.Message) bool {
	k.tailMu.Lock()
	defer k.tailMu.Unlock()
	if k.tail == nil {
		return false
	}
	k.tail.msgs = append(k.tail.msgs, m)
	k.publish("status", &m.Header, map[string]any{"execution_state": "idle"})
	k.publish("status", k.tail.parent, map[string]any{"execution_state": "busy"})
	return true
}

// runTail runs the work of the messages that joined the running request,
// and of those that join while it does, then closes the tail: a message
// that comes later is queued.
func (k *Kernel) runTail(ctx context.Context) {
	for {
		k.tailMu.Lock()
		t := k.tail
		if t == nil || len(t.msgs) == 0 {
			k.tail = nil
			k.tailMu.Unlock()
			return
		}
		msgs := t.msgs
		t.msgs = nil
		k.tailMu.Unlock()
		for _, m := range msgs {
			k.runDeferred(ctx, m, t.parent)
		}
	}
}

// handleCommInfo answers comm_info_request with the session's open comms,
// those of target_name only when it is given.
func (k *Kernel) handleCommInfo(m *wire.Message) {
	var req struct {
		TargetName string `json:"target_name"`
	}
	if len(m.Content) > 0 {
		if err := m.Unmarshal(&req); err != nil {
			k.log.Warn("bad comm_info_request; listing every comm", "err", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), commTimeout)
	defer cancel()
	comms, err := k.exec.CommInfo(ctx, req.TargetName)
	if err != nil {
		k.log.Warn("comm_info", "err", err)
	}
	out := map[string]any{}
	for id, target := range comms {
		out[id] = map[string]any{"target_name": target}
	}
	k.reply(k.shell, m, "comm_info_reply", map[string]any{"status": "ok", "comms": out})
}

// commOutput publishes a comm message of the session on iopub: its parent
// is the message it answers when it names one, else the request that runs
// now (the cell, or the comm message whose callbacks run). Unlike a cell's
// output it is never dropped: a widget's state must reach the front end even
// from a silent cell.
func (k *Kernel) commOutput(c comm.Message) {
	var parent *wire.Header
	if len(c.Parent) > 0 {
		var h wire.Header
		if err := json.Unmarshal(c.Parent, &h); err == nil && h.MsgID != "" {
			parent = &h
		}
	}
	if parent == nil {
		k.outMu.Lock()
		parent = k.outParent
		k.outMu.Unlock()
	}
	m, err := wire.NewMessage(c.Type, k.session, parent, c.Content())
	if err != nil {
		k.log.Error("build a comm message", "msg_type", c.Type, "err", err)
		return
	}
	if c.Metadata != nil {
		m.Metadata = c.Metadata
	}
	m.Buffers = c.Buffers
	k.send(m)
}
