package peerloss

import (
	"errors"
	"io"
	"syscall"
	"time"
)

// Cause is why a peer's connection ended.
type Cause int

const (
	// ProcessGone: the peer's host closed or reset the connection while it
	// was talking, as a kernel does for a process that exits or is killed.
	ProcessGone Cause = iota
	// HostGone: nothing answers for the peer any more: the network between
	// the hosts is down, or the machine is gone.
	HostGone
)

// Phrases of each cause, as they appear in errors.
const (
	hostGone    = "its host stopped answering (network down or machine gone)"
	processGone = "connection closed (process exited or was killed)"
)

func (c Cause) String() string {
	if c == HostGone {
		return hostGone
	}
	return processGone
}

// LongSilence is how long a peer must have sent nothing for a reset of its
// connection to mean that its host, not its process, went away: a live
// process's kernel resets a connection at once when the process dies, while
// a host that rebooted resets it only when this side's next probe or send
// reaches it, after the keep-alive idle time.
const LongSilence = 5 * time.Second

// hostErrnos are the errors a kernel reports for a peer it cannot reach at
// all: the keep-alive or retransmission limit ran out (ETIMEDOUT), or the
// route or neighbour entry to the peer went away (the others).
var hostErrnos = []syscall.Errno{syscall.ETIMEDOUT, syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.EHOSTDOWN, syscall.ENETDOWN}

// Classify says why a connection ended with err, the peer having sent
// nothing for silence before it.
func Classify(err error, silence time.Duration) Cause {
	for _, e := range hostErrnos {
		if errors.Is(err, e) {
			return HostGone
		}
	}
	if silence >= LongSilence && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)) {
		return HostGone
	}
	return ProcessGone
}

// Reason words a loss for an error message: the cause, then what the
// kernel said (io.EOF reads "the peer closed the connection").
func Reason(err error, silence time.Duration) string {
	what := "the peer closed the connection"
	if err != nil && !errors.Is(err, io.EOF) {
		what = err.Error()
	}
	return Classify(err, silence).String() + ": " + what
}
