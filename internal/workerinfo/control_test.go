package workerinfo

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"
)

// The control pipe carries every message of the launcher: stops with their
// mode (a save asked after a finish wins, a finish after a save changes
// nothing), comm messages for the worker's widgets, and stacks requests,
// answered on the status pipe.
func TestTheControlPipeServesStopsCommsAndStacks(t *testing.T) {
	statusR, statusW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer statusR.Close()
	defer statusW.Close()
	controlR, controlW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	comms := make(chan string, 1)
	w := &Worker{rank: 1, rep: &reporter{out: statusW}, controlled: true}
	w.HandleComm(func(m json.RawMessage) { comms <- string(m) })
	done := make(chan struct{})
	orphaned := make(chan struct{}, 1)
	go func() {
		w.serveControl(controlR, func() { orphaned <- struct{}{} })
		close(done)
	}()
	send := func(m ControlMessage) {
		t.Helper()
		if _, err := controlW.Write(append(m.Encode(), '\n')); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(want StopMode) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for w.RequestedStop() != want {
			if time.Now().After(deadline) {
				t.Fatalf("w.RequestedStop() = %v; want %v", w.RequestedStop(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	send(ControlMessage{Type: ControlStop, Mode: StopFinish})
	wait(StopFinish)
	send(ControlMessage{Type: ControlComm, Comm: json.RawMessage(`{"comm_id":"w1"}`)})
	select {
	case m := <-comms:
		if m != `{"comm_id":"w1"}` {
			t.Fatalf("the widgets got %s", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the comm message did not reach the handler")
	}
	send(ControlMessage{Type: ControlStop, Mode: StopSave})
	wait(StopSave)
	send(ControlMessage{Type: ControlStop, Mode: StopFinish})
	send(ControlMessage{Type: ControlStacks})
	sc := bufio.NewScanner(statusR)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	if !sc.Scan() {
		t.Fatal("no answer to the stacks request")
	}
	var s Status
	if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Rank != 1 || s.Stacks == "" {
		t.Fatalf("the stacks answer %q: %v", sc.Text(), err)
	}
	if w.RequestedStop() != StopSave {
		t.Fatalf("a finish after a save made it %v", w.RequestedStop())
	}
	select {
	case <-orphaned:
		t.Fatal("the worker took itself for orphaned while its launcher writes to it")
	default:
	}
	controlW.Close() // the launcher is gone
	<-done
	select {
	case <-orphaned:
	default:
		t.Fatal("the control pipe's end did not make the worker leave (the lifeline where Linux's parent-death signal is missing)")
	}
}

func TestStopModesTravelByName(t *testing.T) {
	b := ControlMessage{Type: ControlStop, Mode: StopSave}.Encode()
	if string(b) != `{"type":"stop","mode":"save"}` {
		t.Fatalf("encoded %s", b)
	}
	var m ControlMessage
	if err := json.Unmarshal([]byte(`{"type":"stop","mode":"finish"}`), &m); err != nil || m.Mode != StopFinish {
		t.Fatalf("decoded %+v, %v", m, err)
	}
	if err := json.Unmarshal([]byte(`{"type":"stop","mode":"later"}`), &m); err == nil {
		t.Fatal("an unknown mode was accepted")
	}
	if b := (ControlMessage{Type: ControlStacks}).Encode(); string(b) != `{"type":"stacks"}` {
		t.Fatalf("a stacks request is %s", b)
	}
}
