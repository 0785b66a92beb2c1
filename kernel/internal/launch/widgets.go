package launch

import (
	"fmt"
	"io"
	"sync"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// relay carries a launch's widgets between the notebook and the workers. A
// worker's comm messages arrive as frames on its stdout and go out through
// the session's comms; the front end's messages to a worker's widget go to
// that worker's control pipe (ctl.Send). Each relayed widget keeps a
// mirror of its state, so that once the workers end it still answers the
// front end (a reloaded page asks for it) and stays as it was.
type relay struct {
	comms  *comm.Manager // nil: the launch shows no widgets
	stderr io.Writer
	ctl    *workers.Control

	mu      sync.Mutex
	remotes map[string]*remote
}

func newRelay(comms *comm.Manager, stderr io.Writer, ctl *workers.Control) *relay {
	return &relay{comms: comms, stderr: stderr, ctl: ctl, remotes: map[string]*remote{}}
}

// fromWorker publishes a comm message a worker's widget sent, keeping the
// widget's mirror.
func (r *relay) fromWorker(rank int, m comm.Message) {
	if r.comms == nil {
		return
	}
	r.mu.Lock()
	rem := r.remotes[m.CommID]
	switch {
	case m.Type == "comm_open" && rem == nil:
		rem = &remote{relay: r, rank: rank, state: map[string]any{}, live: true}
		r.remotes[m.CommID] = rem
		r.mu.Unlock()
		rem.c = r.comms.Register(m.CommID, m.Target, rem)
	case m.Type == "comm_close":
		delete(r.remotes, m.CommID)
		r.mu.Unlock()
		r.comms.Forget(m.CommID)
		rem = nil
	default:
		r.mu.Unlock()
	}
	if rem != nil {
		rem.observe(m)
	}
	r.comms.Send(m)
}

// detach is called when the workers have ended: their widgets answer from
// their mirrors from now on.
func (r *relay) detach() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rem := range r.remotes {
		rem.mu.Lock()
		rem.live = false
		rem.mu.Unlock()
	}
}

// remote is the session's side of a worker's widget: a comm.Handler that
// forwards the front end's messages to the worker while it runs, and a
// mirror of the widget's state.
type remote struct {
	relay *relay
	rank  int
	c     *comm.Comm

	mu    sync.Mutex
	state map[string]any
	live  bool
}

// HandleMsg forwards a front end's message to the worker; once the worker
// has ended, it answers from the mirror (request_state, update).
func (rm *remote) HandleMsg(m comm.Message) {
	rm.mu.Lock()
	live := rm.live
	rm.mu.Unlock()
	if live {
		frame, err := job.CommFrame(m)
		if err == nil && rm.relay.ctl.Send(rm.rank, frame) {
			return
		}
		fmt.Fprintf(rm.relay.stderr, "a widget message to rank %d was dropped (its worker is busy or gone)\n", rm.rank)
		return
	}
	switch m.Data["method"] {
	case "request_state":
		rm.reply(m, "update", rm.WidgetState())
	case "update":
		state, _ := m.Data["state"].(map[string]any)
		rm.merge(state, m.Data["buffer_paths"], m.Buffers)
		rm.reply(m, "echo_update", state)
	}
}

// HandleClose forwards a front end's comm_close to the worker.
func (rm *remote) HandleClose(m comm.Message) { rm.HandleMsg(m) }

// WidgetState returns the mirror's state (comm.StateHolder).
func (rm *remote) WidgetState() map[string]any {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	out := make(map[string]any, len(rm.state))
	for k, v := range rm.state {
		out[k] = v
	}
	return out
}

func (rm *remote) reply(to comm.Message, method string, state map[string]any) {
	if state == nil || rm.c == nil {
		return
	}
	state, paths, buffers := comm.SeparateBuffers(state)
	rm.c.Reply(to, map[string]any{"method": method, "state": state, "buffer_paths": paths}, buffers)
}

// observe keeps the mirror up to date with what the worker's widget sent.
func (rm *remote) observe(m comm.Message) {
	switch {
	case m.Type == "comm_open":
	case m.Data["method"] == "update" || m.Data["method"] == "echo_update":
	default:
		return
	}
	state, _ := m.Data["state"].(map[string]any)
	rm.merge(state, m.Data["buffer_paths"], m.Buffers)
}

// merge puts state, with its binary buffers back in, into the mirror.
func (rm *remote) merge(state map[string]any, paths any, buffers [][]byte) {
	if state == nil {
		return
	}
	cp := make(map[string]any, len(state))
	for k, v := range state {
		cp[k] = v
	}
	if p, ok := paths.([]any); ok && len(p) > 0 {
		if err := comm.PutBuffers(cp, p, buffers); err != nil {
			return
		}
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for k, v := range cp {
		rm.state[k] = v
	}
}
