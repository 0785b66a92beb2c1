package host

import (
	"errors"
	"testing"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

type recorder struct{ sent []string }

func (r *recorder) Send(msgType string, _ map[string]any) { r.sent = append(r.sent, msgType) }

// A process starts as a plain program; its entry point installs its host
// once and a second installation is refused; a test may lend a host of its
// own, which goes away with the test. Every host of the process shares the
// one link to its launcher. (One test: only this package's tests can undo
// an Install, which they do to start from a plain process.)
func TestInstallOnceCurrentAndForTest(t *testing.T) {
	prev := installed.Swap(nil)
	t.Cleanup(func() { installed.Store(prev) })
	plain := Current()
	if plain.Display != nil || plain.Comms != nil || plain.Cells != nil || plain.InNotebook() {
		t.Fatalf("before Install, Current() = %+v; want a plain program's host", plain)
	}
	if plain.Worker == nil || Current().Worker != plain.Worker {
		t.Fatal("a plain program's host has no Worker, or a new one each time")
	}

	first := &recorder{}
	if err := Install(Host{Display: first}); err != nil {
		t.Fatalf("the first Install: %v", err)
	}
	if err := Install(Host{Display: &recorder{}}); !errors.Is(err, ErrInstalled) {
		t.Fatalf("a second Install returned %v; want ErrInstalled", err)
	}
	h := Current()
	if h.Display != first || !h.InNotebook() || h.Worker != plain.Worker {
		t.Fatalf("after Install, Current() = %+v; want the first host with the process's Worker", h)
	}
	h.Display.Send("display_data", nil)
	if len(first.sent) != 1 {
		t.Fatalf("the installed display got %v", first.sent)
	}

	lent, own := &recorder{}, &workerinfo.Worker{}
	t.Run("ForTest", func(t *testing.T) {
		ForTest(t, Host{Display: lent, Worker: own})
		if h := Current(); h.Display != lent || h.Worker != own {
			t.Fatalf("under ForTest, Current() = %+v; want the lent host", h)
		}
	})
	if h := Current(); h.Display != first {
		t.Fatalf("after the test that lent a host, Current() = %+v; want the installed one back", h)
	}
}
