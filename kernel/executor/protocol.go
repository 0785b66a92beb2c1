package executor

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"

	"github.com/goaccel/goaccel/internal/comm"
)

// Session is what the child serves: one interpreter whose state persists
// across cells. kernel/internal/session's *Session satisfies it.
type Session interface {
	// SetStdin swaps the interpreter's os.Stdin (nil: reading fails with a
	// message saying stdin is not available).
	SetStdin(r io.Reader)
	// Execute runs one cell; ctx cancellation is an interrupt.
	Execute(ctx context.Context, code string) Result
	// UserExpressions evaluates execute_request's user_expressions.
	UserExpressions(ctx context.Context, exprs map[string]string) map[string]any
	// IsComplete reports "complete", "incomplete" (with indent) or "invalid".
	IsComplete(code string) (status, indent string)
	// Complete returns matches for the text before cursor (code points).
	Complete(code string, cursor int) (matches []string, start, end int)
	// Inspect returns a MIME bundle documenting the symbol under cursor.
	Inspect(code string, cursor int, detailLevel int) (found bool, data map[string]any)
}

// Restorer is a Session that can bring back what an earlier executor of the
// same kernel saved in the state file (EnvState names it): after a crash or a
// switch to another executor binary (Result.Switch), the supervisor asks the
// new child to Restore, and shows the note it returns (what came back, and
// which variables were lost; "" when there was nothing to restore).
type Restorer interface {
	Restore(ctx context.Context) (note string)
}

// EnvState names the file where an executor keeps what its successor
// restores. The supervisor sets it in the child's environment; it lives as
// long as the supervisor.
const EnvState = "GOACCEL_SESSION_STATE"

// Stopper is a Session that may answer an interrupt without cancelling the
// cell: Interrupt returns true when it stops the cell's work gracefully (a
// launch whose workers finish their step, save their state and leave), and
// the supervisor then lets the cell run past InterruptGrace. A second
// interrupt cancels the cell.
type Stopper interface {
	Interrupt() bool
}

// Counter is a Session that wants each cell's execution count (the N of
// In [N]) before the cell runs.
type Counter interface {
	SetExecutionCount(n int)
}

// Parenter is a Session that wants the id of the Jupyter request each cell
// or deferred work answers (the execute_request, or the comm message whose
// work runs) before it runs: an Output widget captures what has that parent.
type Parenter interface {
	SetParent(msgID string)
}

// CommHost is a Session that serves Jupyter comms (package widgets in
// cells). The child hands it comm messages and comm_info requests at once,
// even while a cell runs, and runs the work a message deferred between
// cells, when the kernel asks (RunDeferred). The child is its
// comm.Transport: what the session's comms send goes to the kernel.
type CommHost interface {
	// DeliverComm hands one comm message from the front end to the
	// session's comms; it returns how many pieces of work the message
	// deferred. It must not block.
	DeliverComm(m comm.Message) (deferred int, err error)
	// CommInfo returns the open comms, id → target name, of target ("": all).
	CommInfo(target string) map[string]string
	// RunDeferred runs the work the message msgID deferred (widget
	// callbacks: cell code), as a cell runs: ctx cancellation interrupts it,
	// and a panic is reported in the Result, the session kept.
	RunDeferred(ctx context.Context, msgID string) Result
}

// Result is the outcome of one cell (the shape of kernel/internal/session.Result).
type Result struct {
	Data        map[string]any   `json:"data,omitempty"`
	Metadata    map[string]any   `json:"metadata,omitempty"`
	Error       *Error           `json:"error,omitempty"`
	Payload     []map[string]any `json:"payload,omitempty"`
	Interrupted bool             `json:"interrupted,omitempty"`
	// Switch, when set, is the command of another executor binary (one
	// with packages this one lacks) to run the cell in: the supervisor
	// replaces the child with one running it, has it restore the session
	// and runs the cell again there.
	Switch []string `json:"switch,omitempty"`
}

// Error is a failed cell, as a Jupyter error message carries it.
type Error struct {
	Ename     string   `json:"ename"`
	Evalue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

// Request operations, parent to child.
const (
	opHello       = "hello" // the first request: Value is the sync marker's secret
	opExecute     = "execute"
	opIsComplete  = "is_complete"
	opComplete    = "complete"
	opInspect     = "inspect"
	opInterrupt   = "interrupt"
	opInputReply  = "input_reply"
	opRestore     = "restore"
	opComm        = "comm"      // a comm message from the front end, delivered at once
	opCommInfo    = "comm_info" // the open comms, answered at once
	opDeferred    = "deferred"  // run the work a comm message deferred, between cells
	evDone        = "done"
	evDisplay     = "display"
	evInput       = "input"
	evComm        = "comm"     // a comm message for the front end
	evStopping    = "stopping" // an interrupt is being answered gracefully: do not kill the child
	syncMarkerPfx = "\x00\x1bGOACCEL-SYNC:"
)

// request is one frame from the parent to the child.
type request struct {
	ID         uint64            `json:"id"`
	Op         string            `json:"op"`
	Code       string            `json:"code,omitempty"`
	Cursor     int               `json:"cursor,omitempty"`
	Detail     int               `json:"detail,omitempty"`
	AllowStdin bool              `json:"allow_stdin,omitempty"`
	Count      int               `json:"count,omitempty"`
	Exprs      map[string]string `json:"exprs,omitempty"`
	Value      string            `json:"value,omitempty"`
	Err        string            `json:"err,omitempty"`
	// Parent is the id of the Jupyter request an execute or deferred work
	// answers (Parenter).
	Parent string `json:"parent,omitempty"`
	// Deferred is the id of the comm message whose deferred work to run,
	// when it is not Parent (its callbacks end the request Parent names).
	Deferred string        `json:"deferred,omitempty"`
	Comm     *comm.Message `json:"comm,omitempty"`
}

// event is one frame from the child to the parent. Sync, when non-zero,
// is the number of the output marker the child wrote to stdout and stderr
// just before this event: the parent publishes all output before the marker
// first, so text printed before a display or a result appears before it.
type event struct {
	ID   uint64 `json:"id"`
	Kind string `json:"kind"`
	Sync uint64 `json:"sync,omitempty"`

	Result          *Result        `json:"result,omitempty"`
	UserExpressions map[string]any `json:"user_expressions,omitempty"`
	Status          string         `json:"status,omitempty"`
	Indent          string         `json:"indent,omitempty"`
	Matches         []string       `json:"matches,omitempty"`
	Start           int            `json:"start,omitempty"`
	End             int            `json:"end,omitempty"`
	Found           bool           `json:"found,omitempty"`
	Data            map[string]any `json:"data,omitempty"`

	MsgType  string         `json:"msg_type,omitempty"`
	Content  map[string]any `json:"content,omitempty"`
	Prompt   string         `json:"prompt,omitempty"`
	Password bool           `json:"password,omitempty"`

	Comm     *comm.Message     `json:"comm,omitempty"`
	Comms    map[string]string `json:"comms,omitempty"`
	Deferred int               `json:"deferred,omitempty"`
	Err      string            `json:"err,omitempty"`
}

// syncPrefix is what every sync marker of a child starts with: a fixed part
// and the secret the parent sent the child in its hello, so output that
// merely looks like a marker is never taken for one.
func syncPrefix(secret string) []byte {
	return []byte(syncMarkerPfx + secret + ":")
}

// syncMarker is the byte sequence written to stdout and stderr for marker n.
// It is shorter than PIPE_BUF, so the write is atomic and never interleaves
// with other writers.
func syncMarker(prefix []byte, n uint64) []byte {
	return fmt.Appendf(bytes.Clone(prefix), "%s\x00", strconv.FormatUint(n, 10))
}

// newSecret returns a random secret for a child's sync markers.
func newSecret() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("executor: sync marker secret: %w", err)
	}
	return hex.EncodeToString(b), nil
}
