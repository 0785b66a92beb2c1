package job

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// The front end's messages to the widgets a worker made come in on the
// worker's control pipe (workerinfo.ControlMessage, type comm), as every
// message of its launcher does.

// CommFrame is the control message that carries a front end's comm message
// to the worker that made the widget it is for (workers.Control.Send).
func CommFrame(m comm.Message) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode a comm message for a worker: %w", err)
	}
	return workerinfo.ControlMessage{Type: workerinfo.ControlComm, Comm: b}.Encode(), nil
}

// serveComms delivers the comm messages the launcher relays to the
// worker's widgets (comms) as they arrive on w's control pipe, and runs the callbacks they
// defer on one goroutine of their own, in order. In a worker the launched
// function runs throughout, so callbacks run beside it, as a goroutine it
// started would.
func serveComms(w *workerinfo.Worker, comms *comm.Manager) {
	jobs := make(chan comm.Job, 1024)
	go func() {
		for j := range jobs {
			runCallback(j)
		}
	}()
	w.HandleComm(func(raw json.RawMessage) {
		var m comm.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			fmt.Fprintf(os.Stderr, "goaccel worker: a bad widget message from the launcher: %v\n", err)
			return
		}
		if _, err := comms.Deliver(m); err != nil {
			fmt.Fprintf(os.Stderr, "goaccel worker: a widget message: %v\n", err)
		}
		for _, j := range comms.Take(m.MsgID) {
			select {
			case jobs <- j:
			default:
				fmt.Fprintln(os.Stderr, "goaccel worker: too many widget callbacks waiting; one was dropped")
			}
		}
	})
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
