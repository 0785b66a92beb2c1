package session

import (
	"context"
	"runtime"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// settledHeap is the live heap, in KiB, of a session left idle: its pools
// and collector have given back what they kept (backend.Idle, what an idle
// session does), and the session has let go of the runs no code of is left
// (which it does at the start of a cell).
func settledHeap(t *testing.T, s *Session) float64 {
	t.Helper()
	backend.Idle()
	if r := s.Execute(context.Background(), "_ = 0"); r.Error != nil {
		t.Fatal(r.Error.Evalue)
	}
	backend.Idle()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 10)
}

// Re-running a cell keeps one run's worth of it: the code the interpreter
// compiled, the file's imports and positions, the session's source and
// source maps, the type check, the frame slots and the values of a run all
// go once nothing refers to them. 2,000 more runs of each shape leave the
// live heap within 1 MiB (about 500 bytes a run, while the code of one run
// alone takes several KiB); each run used to keep 12–22 KiB (140 KiB for
// the closure, whose copies of the frame held every earlier one), and the
// frame every top-level closure copies grew by a slot per temporary.
func TestRerunCellsKeepOneRunsWorth(t *testing.T) {
	if testing.Short() {
		t.Skip("12,000 cells")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory and slowness say nothing of what the session keeps")
	}
	const setup = "import (\"fmt\"; \"github.com/goaccel/goaccel/tensors\")\nacc := 0.0\nx := tensors.Zeros(1)"
	for _, c := range []struct{ name, cell string }{
		{"a tensor defined again", "x := tensors.Randn(256, 256); acc += x.Sum().Item()"},
		{"a tensor assigned", "x = tensors.Randn(256, 256)"},
		{"a number updated", "acc += 1.0"},
		{"a function defined again", "func f(a int) int { return a * 2 }"},
		{"a closure made and called", "g := func() float64 { return acc }; acc += g()"},
		{"a loop that prints", "for i := 0; i < 2; i++ { fmt.Println(i, acc) }"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			ctx := context.Background()
			if r := s.Execute(ctx, setup); r.Error != nil {
				t.Fatal(r.Error.Evalue)
			}
			for range 500 {
				s.Execute(ctx, c.cell)
			}
			before := settledHeap(t, s)
			for range 2000 {
				if r := s.Execute(ctx, c.cell); r.Error != nil {
					t.Fatalf("%q: %s", c.cell, r.Error.Evalue)
				}
			}
			grew := settledHeap(t, s) - before
			if grew > 1024 {
				t.Errorf("2,000 more runs of %q kept %.0f KiB (%.0f bytes a run), want at most 1 MiB", c.cell, grew, grew*1024/2000)
			} else {
				t.Logf("2,000 more runs of %q kept %.0f KiB", c.cell, grew)
			}
		})
	}
}
