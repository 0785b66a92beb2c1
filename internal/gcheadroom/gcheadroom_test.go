package gcheadroom

import (
	"runtime"
	"runtime/metrics"
	"testing"
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

func TestKeepFollowsTheLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	stop := Keep(256 << 20)
	collect()
	if p, want := gogc(), Percent(256<<20, live()); p < want*9/10 || p > want*11/10 || p <= 100 {
		t.Errorf("GC percent with a small live heap (%d bytes) = %d; want about %d", live(), p, want)
	}
	big := make([]byte, 512<<20) // noscan and never touched: no memory is used
	collect()
	if p := gogc(); p != 100 {
		t.Errorf("GC percent with a live heap above the headroom (%d bytes) = %d; want 100", live(), p)
	}
	runtime.KeepAlive(big)
	collect()
	if p := gogc(); p <= 100 {
		t.Errorf("GC percent once the live heap is small again = %d; want more than 100", p)
	}
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
