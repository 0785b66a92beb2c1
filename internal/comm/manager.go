package comm

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Message is one comm message, in either direction.
type Message struct {
	// Type is "comm_open", "comm_msg" or "comm_close".
	Type   string `json:"type"`
	CommID string `json:"comm_id"`
	// Target is the target name of a comm_open.
	Target string         `json:"target_name,omitempty"`
	Data   map[string]any `json:"data,omitempty"`
	// Metadata is the Jupyter message's metadata (a widget's comm_open
	// carries the protocol version there).
	Metadata map[string]any `json:"metadata,omitempty"`
	Buffers  [][]byte       `json:"buffers,omitempty"`
	// MsgID is the id of the front end's message (inbound only): work a
	// handler defers is keyed by it.
	MsgID string `json:"msg_id,omitempty"`
	// Parent is the header of the message an outbound one answers, as the
	// kernel received it; empty, the kernel gives the message the parent of
	// what runs now (the cell, or the message whose deferred work runs).
	Parent json.RawMessage `json:"parent,omitempty"`
}

// Content is the message's Jupyter content: comm_id and data, and for a
// comm_open its target_name.
func (m Message) Content() map[string]any {
	data := m.Data
	if data == nil {
		data = map[string]any{}
	}
	c := map[string]any{"comm_id": m.CommID, "data": data}
	if m.Type == "comm_open" {
		c["target_name"] = m.Target
	}
	return c
}

// Transport carries messages to the front end. SendComm must not block for
// long: it is called from cells and from deliveries alike.
type Transport interface {
	SendComm(m Message)
}

// Handler receives the messages of one comm from the front end.
type Handler interface {
	// HandleMsg is called for each comm_msg, at once (even while a cell
	// runs), on the goroutine that delivers it: it must not block, and it
	// hands work that runs cell code to Manager.Defer.
	HandleMsg(m Message)
	// HandleClose is called once when the front end closes the comm.
	HandleClose(m Message)
}

// Target answers a comm_open from the front end to its target name with the
// handler of the new comm, or an error that closes it.
type Target func(c *Comm, open Message) (Handler, error)

// Job is work a message deferred. Run is cell code (a widget callback), which
// the session runs as it runs a cell (interruptible, a panic reported and the
// session kept). Around, when set, is compiled code that wraps it (an Output
// widget capturing what the callback prints): it calls run exactly once.
type Job struct {
	Run    func()
	Around func(run func())
}

// ErrUnknownComm is Deliver's error for a message to a comm that is not
// open (closed already, or never opened by this process).
var ErrUnknownComm = errors.New("no such comm")

// maxDeferred bounds the work waiting for the kernel to run it: work the
// kernel never asks for (it lost the message) must not pile up forever.
const maxDeferred = 4096

// Manager holds a process's open comms and targets. Its methods are safe
// for concurrent use.
type Manager struct {
	t Transport

	mu       sync.Mutex
	comms    map[string]*Comm
	targets  map[string]Target
	deferred map[string][]Job // by the id of the message that deferred them
	order    []string         // keys of deferred, oldest first
	queued   int
	parent   string
	atFinish []func()
}

// NewManager returns a Manager that sends through t.
func NewManager(t Transport) *Manager {
	return &Manager{t: t, comms: map[string]*Comm{}, targets: map[string]Target{}, deferred: map[string][]Job{}}
}

// Comm is one open comm.
type Comm struct {
	m      *Manager
	id     string
	target string
	h      Handler
	closed atomic.Bool
}

// ID returns the comm's id (a widget's model id).
func (c *Comm) ID() string { return c.id }

// Target returns the comm's target name.
func (c *Comm) Target() string { return c.target }

// Closed reports whether either side closed the comm.
func (c *Comm) Closed() bool { return c.closed.Load() }

// Send sends a comm_msg with data and binary buffers; nothing once closed.
func (c *Comm) Send(data map[string]any, buffers [][]byte) {
	c.Reply(Message{}, data, buffers)
}

// Reply sends a comm_msg answering to (whose header becomes its parent).
func (c *Comm) Reply(to Message, data map[string]any, buffers [][]byte) {
	if c.closed.Load() {
		return
	}
	c.m.t.SendComm(Message{Type: "comm_msg", CommID: c.id, Data: data, Buffers: buffers, Parent: to.Parent})
}

// Close closes the comm on both sides, sending data with the comm_close.
func (c *Comm) Close(data map[string]any) {
	if c.closed.Swap(true) {
		return
	}
	c.m.forget(c.id)
	c.m.t.SendComm(Message{Type: "comm_close", CommID: c.id, Data: data})
}

// newID returns a fresh comm id: 32 hex digits, as ipykernel's uuid4().hex.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Open opens a comm to target on the front end (comm_open with data,
// metadata and buffers); h receives the front end's messages to it.
func (m *Manager) Open(target string, data, metadata map[string]any, buffers [][]byte, h Handler) *Comm {
	c := m.Register(newID(), target, h)
	m.t.SendComm(Message{Type: "comm_open", CommID: c.id, Target: target, Data: data, Metadata: metadata, Buffers: buffers})
	return c
}

// Register records a comm opened elsewhere (by a launched worker, whose
// comm_open its launcher relays) so that the front end's messages to it
// reach h. It sends nothing.
func (m *Manager) Register(id, target string, h Handler) *Comm {
	c := &Comm{m: m, id: id, target: target, h: h}
	m.mu.Lock()
	m.comms[id] = c
	m.mu.Unlock()
	return c
}

// Forget drops a comm without telling the front end (its comm_close was
// relayed from the worker that opened it).
func (m *Manager) Forget(id string) {
	m.mu.Lock()
	c := m.comms[id]
	m.mu.Unlock()
	if c != nil {
		c.closed.Store(true)
	}
	m.forget(id)
}

func (m *Manager) forget(id string) {
	m.mu.Lock()
	delete(m.comms, id)
	m.mu.Unlock()
}

// Lookup returns the open comm with id, or nil.
func (m *Manager) Lookup(id string) *Comm {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.comms[id]
}

// RegisterTarget makes comm_open messages to name reach t (nil removes it).
func (m *Manager) RegisterTarget(name string, t Target) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t == nil {
		delete(m.targets, name)
		return
	}
	m.targets[name] = t
}

// Send sends msg as it is: a relayed message of a worker's comm.
func (m *Manager) Send(msg Message) { m.t.SendComm(msg) }

// Info returns the open comms (id → target name), only those of target
// unless it is "" (comm_info_request).
func (m *Manager) Info(target string) map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]string{}
	for id, c := range m.comms {
		if target == "" || c.target == target {
			out[id] = c.target
		}
	}
	return out
}

// Deliver hands a message from the front end to its comm's handler, at once.
// It returns how many pieces of work the handler deferred (Defer) for the
// kernel to run between cells (Take). A comm_open to an
// unknown target is answered with a comm_close, as ipykernel does. A bad
// message or a handler that panics is an error, never a crash.
func (m *Manager) Deliver(msg Message) (deferred int, err error) {
	before := m.pending(msg.MsgID)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("comm %s: the %s handler panicked: %v", msg.CommID, msg.Type, r)
		}
		deferred = m.pending(msg.MsgID) - before
	}()
	if msg.CommID == "" {
		return 0, fmt.Errorf("%s without a comm_id", msg.Type)
	}
	switch msg.Type {
	case "comm_open":
		return 0, m.open(msg)
	case "comm_msg":
		c := m.Lookup(msg.CommID)
		if c == nil {
			return 0, fmt.Errorf("comm_msg to comm %s: %w", msg.CommID, ErrUnknownComm)
		}
		if c.h != nil {
			c.h.HandleMsg(msg)
		}
	case "comm_close":
		c := m.Lookup(msg.CommID)
		if c == nil {
			return 0, fmt.Errorf("comm_close of comm %s: %w", msg.CommID, ErrUnknownComm)
		}
		c.closed.Store(true)
		m.forget(c.id)
		if c.h != nil {
			c.h.HandleClose(msg)
		}
	default:
		return 0, fmt.Errorf("%s is not a comm message", msg.Type)
	}
	return 0, nil
}

// open answers a comm_open from the front end.
func (m *Manager) open(msg Message) error {
	m.mu.Lock()
	t := m.targets[msg.Target]
	m.mu.Unlock()
	refuse := func(why error) error {
		m.t.SendComm(Message{Type: "comm_close", CommID: msg.CommID, Parent: msg.Parent})
		return why
	}
	if t == nil {
		return refuse(fmt.Errorf("comm_open to target %q, which this kernel does not have; closed it", msg.Target))
	}
	c := &Comm{m: m, id: msg.CommID, target: msg.Target}
	h, err := t(c, msg)
	if err != nil {
		return refuse(fmt.Errorf("comm_open to target %q: %w; closed it", msg.Target, err))
	}
	c.h = h
	m.mu.Lock()
	m.comms[c.id] = c
	m.mu.Unlock()
	return nil
}

// Defer queues job to run when the kernel asks for the work of msg (Take),
// between cells. Outside a delivery (msg has no MsgID) it is queued under "".
func (m *Manager) Defer(msg Message, job Job) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.deferred[msg.MsgID]; !ok {
		m.order = append(m.order, msg.MsgID)
	}
	m.deferred[msg.MsgID] = append(m.deferred[msg.MsgID], job)
	m.queued++
	for m.queued > maxDeferred && len(m.order) > 1 {
		oldest := m.order[0]
		m.order = m.order[1:]
		m.queued -= len(m.deferred[oldest])
		delete(m.deferred, oldest)
	}
}

// Take removes and returns the work deferred by the message with id msgID,
// in the order it was deferred.
func (m *Manager) Take(msgID string) []Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	jobs, ok := m.deferred[msgID]
	if !ok {
		return nil
	}
	delete(m.deferred, msgID)
	m.queued -= len(jobs)
	for i, id := range m.order {
		if id == msgID {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
	return jobs
}

func (m *Manager) pending(msgID string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.deferred[msgID])
}

// SetParent records the id of the request that runs now: the cell's
// execute_request, or the message whose deferred work runs.
func (m *Manager) SetParent(msgID string) {
	m.mu.Lock()
	m.parent = msgID
	m.mu.Unlock()
}

// Parent returns the id SetParent recorded: what an Output widget captures
// (the front end shows in it the output whose parent has this id).
func (m *Manager) Parent() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.parent
}

// AtFinish registers fn to run when the request that runs now finishes
// (Finish), before its reply: a widget's callback output area still to be
// shown goes under the cell that made it.
func (m *Manager) AtFinish(fn func()) {
	m.mu.Lock()
	m.atFinish = append(m.atFinish, fn)
	m.mu.Unlock()
}

// Finish runs and forgets what AtFinish registered; the session calls it
// when a cell or a message's deferred work ends.
func (m *Manager) Finish() {
	m.mu.Lock()
	fns := m.atFinish
	m.atFinish = nil
	m.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}
