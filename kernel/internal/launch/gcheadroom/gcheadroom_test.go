package gcheadroom

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentGivesTheHeadroom(t *testing.T) {
	for _, c := range []struct {
		headroom, live uint64
		want           int
	}{
		{64 << 20, 16 << 20, 400},
		{64 << 20, 64 << 20, 100},
		{64 << 20, 1 << 30, 100}, // a large heap: GOGC=100's headroom is larger
		{64 << 20, 0, 100},       // nothing measured yet
		{64 << 20, 1 << 10, maxPercent},
		{64 << 20, 48 << 20, 133},
	} {
		if got := Percent(c.headroom, c.live); got != c.want {
			t.Errorf("Percent(%d, %d) = %d; want %d", c.headroom, c.live, got, c.want)
		}
	}
}

func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

func live() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// collect runs collections until the finalizer of the last has run.
func collect() {
	for range 3 {
		runtime.GC()
		runtime.Gosched()
	}
}

// settles collects until cond holds for the GC percent, or fails after 10 s.
// Keep adjusts the percent from a finalizer, which runs on its own goroutine
// after each collection: on a loaded machine it may not have run yet when
// collect returns, so one read right after can see the previous setting.
func settles(t *testing.T, what string, cond func(p int) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		collect()
		p := gogc()
		if cond(p) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("GC percent %s: %d (live heap %d bytes)", what, p, live())
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKeepFollowsTheLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	stop := Keep(256 << 20)
	settles(t, "with a small live heap, want about Percent(256 MiB, live)", func(p int) bool {
		want := Percent(256<<20, live())
		return p >= want*9/10 && p <= want*11/10 && p > 100
	})
	big := make([]byte, 512<<20) // noscan and never touched: no memory is used
	settles(t, "with a live heap above the headroom, want 100", func(p int) bool { return p == 100 })
	runtime.KeepAlive(big)
	settles(t, "once the live heap is small again, want more than 100", func(p int) bool { return p > 100 })
	stop()
	if p := gogc(); p != 100 {
		t.Errorf("GC percent after stop = %d; want 100", p)
	}
	collect()
	if p := gogc(); p != 100 {
		t.Errorf("GC percent after stop and a collection = %d; want 100", p)
	}
}

func TestKeepLeavesTheUsersSetting(t *testing.T) {
	t.Setenv("GOGC", "100")
	stop := Keep(256 << 20)
	defer stop()
	collect()
	if p := gogc(); p != 100 {
		t.Errorf("GC percent with GOGC set = %d; want 100, the user's", p)
	}
}
