package progress

import (
	"testing"
	"time"
)

// A bar given to an Accelerator as a tracker shows the latest logged values after its rate.
func TestLogShowsTheLatestValues(t *testing.T) {
	c := newClock()
	b := rangeBar(10, "epoch", output{mode: off}, c)
	b.Next()
	c.tick(time.Second)
	if err := b.Start("run", nil); err != nil {
		t.Fatal(err)
	}
	b.Log(map[string]float64{"loss": 0.5, "acc": 0.9}, 1)
	b.Log(map[string]float64{"loss": 0.25}, 2)
	if got, want := b.String(), "epoch:   0%|                    | 0/10 [00:01<?, ?it/s, acc=0.9, loss=0.25]"; got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
}
