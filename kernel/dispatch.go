package kernel

import (
	"context"
	"time"

	"github.com/goaccel/goaccel/kernel/wire"
)

// Where each message type is handled — the one place that lists them all.
//
// Shell requests that touch the interpreter (execute, is_complete, complete,
// inspect) run one at a time on the shell worker, in arrival order.
// kernel_info, history, comm_info and comm messages are answered by the
// shell reader at once, even while a cell runs: a comm message reaches the
// session's comms at once (a widget's new value), and only the work it
// defers (widget callbacks, cell code) waits for the shell worker: it runs
// at the end of the running cell (or callbacks), which it joins (tail in
// comm.go), or, when nothing runs, as a queued request of its own. Control
// is served by its own goroutine, so interrupt and shutdown are never
// queued behind a cell.
var queuedShell = map[string]bool{
	"execute_request":     true,
	"is_complete_request": true,
	"complete_request":    true,
	"inspect_request":     true,
}

// onShell is the shell channel's reader.
func (k *Kernel) onShell(m *wire.Message) {
	t := m.Header.MsgType
	if queuedShell[t] {
		k.queue <- m
		return
	}
	if isComm(t) {
		k.awaitSubscriber()
		k.publish("status", &m.Header, map[string]any{"execution_state": "busy"})
		if !k.handleComm(m) {
			k.publish("status", &m.Header, map[string]any{"execution_state": "idle"})
		} else if !k.joinTail(m) {
			k.queue <- m // its callbacks, when nothing runs; the worker publishes idle after them
		}
		return
	}
	k.busy(m, func() {
		switch t {
		case "kernel_info_request":
			k.reply(k.shell, m, "kernel_info_reply", kernelInfo())
		case "history_request":
			k.handleHistory(m)
		case "comm_info_request":
			k.handleCommInfo(m)
		case "shutdown_request":
			k.handleShutdown(k.shell, m)
		case "interrupt_request":
			k.handleInterrupt(k.shell, m)
		default:
			k.log.Warn("unknown shell message type; no reply sent", "msg_type", t)
		}
	})
	if t == "shutdown_request" {
		k.stop() // after the idle status went out
	}
}

// shellWorker runs queued shell requests one at a time.
func (k *Kernel) shellWorker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-k.queue:
			pending := []*wire.Message{m}
			for len(pending) > 0 {
				m, pending = pending[0], pending[1:]
				if isComm(m.Header.MsgType) { // busy went out when it was delivered
					k.openTail(&m.Header)
					k.runDeferred(ctx, m, &m.Header)
					k.runTail(ctx)
					k.publish("status", &m.Header, map[string]any{"execution_state": "idle"})
					continue
				}
				var abort bool
				k.busy(m, func() { abort = k.runQueued(ctx, m) })
				if abort {
					pending = append(pending, k.abortQueued()...)
				}
			}
		}
	}
}

// runQueued handles one queued shell request; it reports whether queued
// executes must be aborted (a cell failed with stop_on_error set).
func (k *Kernel) runQueued(ctx context.Context, m *wire.Message) (abort bool) {
	switch m.Header.MsgType {
	case "execute_request":
		abort = k.execute(ctx, m)
		k.runTail(ctx) // the callbacks of comm messages that came while it ran
		return abort
	case "is_complete_request":
		k.handleIsComplete(ctx, m)
	case "complete_request":
		k.handleComplete(ctx, m)
	case "inspect_request":
		k.handleInspect(ctx, m)
	}
	return false
}

// isComm reports whether msgType is a comm message from the front end.
func isComm(msgType string) bool {
	return msgType == "comm_open" || msgType == "comm_msg" || msgType == "comm_close"
}

// onControl is the control channel's reader.
func (k *Kernel) onControl(m *wire.Message) {
	k.busy(m, func() {
		switch t := m.Header.MsgType; t {
		case "interrupt_request":
			k.handleInterrupt(k.control, m)
		case "shutdown_request":
			k.handleShutdown(k.control, m)
		case "kernel_info_request":
			k.reply(k.control, m, "kernel_info_reply", kernelInfo())
		default:
			k.log.Warn("unhandled control message type; no reply sent", "msg_type", t)
		}
	})
	if m.Header.MsgType == "shutdown_request" {
		k.stop() // after the idle status went out
	}
}

// onStdin is the stdin channel's reader: input replies go to the cell waiting for them.
func (k *Kernel) onStdin(m *wire.Message) {
	if m.Header.MsgType != "input_reply" {
		k.log.Warn("unexpected message on stdin", "msg_type", m.Header.MsgType)
		return
	}
	select {
	case k.inputs <- m:
	default:
		k.log.Warn("dropped an input_reply nobody was waiting for")
	}
}

// abortWindow is how long after a failed cell the worker keeps looking for
// execute requests to abort (ipykernel's stop_on_error_timeout): a front end's
// "run all" sends every cell at once, and some may still be on the wire. The
// window closes early at the first request sent after the failure: requests
// on one connection arrive in order, so nothing older can follow it.
const abortWindow = 500 * time.Millisecond

// abortQueued answers with status "aborted" every execute_request that the
// client sent before the failed cell's reply (by its header date) and that
// is queued or arrives within abortWindow, as ipykernel does after an error
// when stop_on_error is set. A request sent after the client saw the error
// runs. It returns the other requests it took from the queue, in order, for
// the worker to run next.
func (k *Kernel) abortQueued() (keep []*wire.Message) {
	window := time.NewTimer(abortWindow)
	defer window.Stop()
	for {
		select {
		case m := <-k.queue:
			if !sentBefore(m.Header.Date, k.failedAt) {
				k.log.Debug("request sent after the failure ends the abort window", "msg_type", m.Header.MsgType, "date", m.Header.Date, "failed_at", k.failedAt)
				return append(keep, m)
			}
			if m.Header.MsgType != "execute_request" {
				keep = append(keep, m)
				continue
			}
			k.busy(m, func() {
				k.reply(k.shell, m, "execute_reply", map[string]any{
					"status": "aborted", "execution_count": k.count,
					"user_expressions": map[string]any{}, "payload": []any{},
				})
			})
		case <-window.C:
			return keep
		}
	}
}

// sentBefore reports whether a header date is not after t. An unparsable
// date counts as before: the request was queued behind the failure.
func sentBefore(date string, t time.Time) bool {
	d, err := time.Parse(time.RFC3339Nano, date)
	return err != nil || !d.After(t)
}
