package kernel

import (
	"time"

	"github.com/go-zeromq/zmq4"
)

// subscriberWait bounds how long the kernel holds its first request for a
// front end's iopub subscription (see awaitSubscriber).
const subscriberWait = 3 * time.Second

// informational are the requests that only ask the kernel something: they are
// answered at once, subscriber or not (their busy and idle statuses may be
// lost before a front end subscribes; no front end waits for them).
var informational = map[string]bool{
	"kernel_info_request": true, "complete_request": true, "inspect_request": true,
	"is_complete_request": true, "history_request": true, "comm_info_request": true,
}

// awaitSubscriber holds the kernel's first request that runs code (or
// anything else whose outputs a front end waits for) until some front end
// has subscribed to iopub, or subscriberWait has passed; later requests never
// wait.
//
// A zmq4 PUB drops what it publishes before a peer's subscription has been
// read, and a front end connects its shell and iopub sockets independently.
// Under load the first kernel_info_reply can reach the client before its
// iopub subscription reaches the kernel; a front end that then runs a cell
// at once (jupyter console does, and waits for that cell's status idle on
// iopub with no timeout) would lose the cell's idle status and wait forever.
// So the first cell waits for a subscriber. kernel_info itself does not: a
// client's iopub socket may attach its connection only when the client
// first reads from it (libzmq processes a reconnected pipe on the socket's
// next use), and jupyter_client 8's wait_for_ready reads iopub only after the
// kernel_info_reply, so holding that reply cost every restart subscriberWait.
func (k *Kernel) awaitSubscriber() {
	if k.subscribed.Load() {
		return
	}
	t, ok := k.iopub.sock.(zmq4.Topics)
	if !ok {
		k.subscribed.Store(true)
		return
	}
	start := time.Now()
	for len(t.Topics()) == 0 {
		if time.Since(start) > subscriberWait {
			k.log.Debug("no iopub subscriber yet; serving anyway", "waited", time.Since(start))
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if k.subscribed.CompareAndSwap(false, true) {
		k.log.Debug("iopub subscriber present", "waited", time.Since(start))
	}
}
