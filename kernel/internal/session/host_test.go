package session

import (
	"context"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/syncbuf"
)

// The session is what the executor's host offers library code: its
// Display exists only when the session has somewhere to send displays, and
// as the host's Cells it refuses a launch whose configuration is not the
// launcher's.
func TestTheSessionAsTheHostsDisplayAndCells(t *testing.T) {
	out := &syncbuf.Buffer{}
	if s := hosted(t, Options{Stdout: out, Stderr: out}); s.Display() != nil || host.Current().InNotebook() {
		t.Fatal("a session without Options.Display has a display: library code would draw for nobody")
	}
	sink := &fakeSink{}
	s := hosted(t, Options{Stdout: out, Stderr: out, Display: sink})
	if !host.Current().InNotebook() {
		t.Fatal("the host of a session with a display is not in a notebook")
	}
	host.Current().Display.Send("display_data", map[string]any{"data": map[string]any{"text/plain": "x"}})
	if len(sink.got) != 1 {
		t.Fatalf("the session's display passed on %d messages; want 1", len(sink.got))
	}
	_, err := host.Current().Cells.LaunchCell(context.Background(), host.LaunchCall{Name: "train", Config: 3})
	if err == nil || !strings.Contains(err.Error(), "train") || !strings.Contains(err.Error(), "int") {
		t.Fatalf("a launch with an int for its configuration: %v; want an error naming train and the type", err)
	}
	if n := s.StopLaunches(0); n != 0 {
		t.Fatalf("StopLaunches with nothing running asked %d launches", n)
	}
}
