package kernel

import (
	"time"

	"github.com/go-zeromq/zmq4"
)

// subscriberWait bounds how long the kernel holds its first request for a
// front end's iopub subscription (see awaitSubscriber).
const subscriberWait = 3 * time.Second

// awaitSubscriber holds the kernel's first request until some front end has
// subscribed to iopub, or subscriberWait has passed; later requests never
// wait.
//
// A zmq4 PUB drops what it publishes before a peer's subscription has been
// read, and a front end connects its shell and iopub sockets independently.
// Under load the first kernel_info_reply can reach the client before its
// iopub subscription reaches the kernel; a front end that then runs a cell
// at once (jupyter console does, and waits for that cell's status idle on
// iopub with no timeout) may lose the cell's idle status and wait forever.
// Holding the first request (normally kernel_info) until iopub has a
// subscriber makes the kernel_info_reply mean "iopub is live", as
// jupyter_client's wait_for_ready and the newer iopub welcome message try to
// guarantee.
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
