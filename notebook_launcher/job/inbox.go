package job

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// What a launcher sends a notebook worker through its inbox
// (workers.Inbox): a graceful stop request, for every rank, and the front
// end's messages to the widgets a rank made.

// inFrame is one message in a worker's inbox.
type inFrame struct {
	Type string        `json:"type"` // "stop" or "comm"
	Comm *comm.Message `json:"comm,omitempty"`
}

// StopFrame asks a worker to stop gracefully: its Accelerator ends training
// at a step boundary all ranks agree on (accelerate's StopRequested).
func StopFrame() []byte {
	b, _ := json.Marshal(inFrame{Type: "stop"})
	return b
}

// CommFrame carries a front end's comm message to the worker that made the
// widget it is for.
func CommFrame(m comm.Message) ([]byte, error) {
	b, err := json.Marshal(inFrame{Type: "comm", Comm: &m})
	if err != nil {
		return nil, fmt.Errorf("encode a comm message for a worker: %w", err)
	}
	return b, nil
}

// serveInbox reads the launcher's frames until the inbox closes: a stop is
// recorded for accelerate, a comm message is delivered to the worker's
// widgets (comms, nil when the job shows nothing) and the callbacks it
// defers run on one goroutine of their own, in order. In a worker the
// launched function runs throughout, so callbacks run beside it, as a
// goroutine it started would.
func serveInbox(comms *comm.Manager) {
	jobs := make(chan comm.Job, 1024)
	go func() {
		for j := range jobs {
			runCallback(j)
		}
	}()
	err := workers.ReadInbox(func(payload []byte) {
		var f inFrame
		if err := json.Unmarshal(payload, &f); err != nil {
			fmt.Fprintf(os.Stderr, "goaccel worker: a bad frame from the launcher: %v\n", err)
			return
		}
		switch {
		case f.Type == "stop":
			workerinfo.RequestStop()
		case f.Type == "comm" && f.Comm != nil && comms != nil:
			if _, err := comms.Deliver(*f.Comm); err != nil {
				fmt.Fprintf(os.Stderr, "goaccel worker: a widget message: %v\n", err)
			}
			for _, j := range comms.Take(f.Comm.MsgID) {
				select {
				case jobs <- j:
				default:
					fmt.Fprintln(os.Stderr, "goaccel worker: too many widget callbacks waiting; one was dropped")
				}
			}
		}
	})
	close(jobs)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goaccel worker: %v\n", err)
	}
}

// runCallback runs a widget callback of the worker; its panic is reported on
// stderr and ends only the callback.
func runCallback(j comm.Job) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "panic in a widget callback: %v\n", r)
		}
	}()
	run := func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(os.Stderr, "panic in a widget callback: %v\n", r)
			}
		}()
		j.Run()
	}
	if j.Around != nil {
		j.Around(run)
		return
	}
	run()
}
