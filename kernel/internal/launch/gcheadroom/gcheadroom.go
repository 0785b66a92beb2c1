package gcheadroom

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// maxPercent bounds the GC percent Keep sets, for a live heap so small that
// min would be many times it (a process that has just started).
const maxPercent = 10000

// Keep makes every collection leave the heap room to grow by at least
// headroom bytes before the next one: after each collection it sets the GC
// percent to 100·headroom/live (at least 100, at most 10000) for the live heap it found.
// stop restores GC percent 100 and ends the adjustments. When GOGC or
// GOMEMLIMIT is set in the environment, Keep does nothing.
func Keep(headroom uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	k := &keeper{headroom: headroom, percent: 100}
	k.adjust()
	k.arm()
	return k.stop
}

type keeper struct {
	headroom uint64
	mu       sync.Mutex
	percent  int
	stopped  bool
}

// tick is garbage that tells the keeper a collection happened: its
// finalizer runs after the first collection that finds it unreachable.
// The pointer keeps it out of the tiny allocator, whose blocks are freed
// (and finalized) together.
type tick struct{ _ *byte }

func (k *keeper) arm() {
	runtime.SetFinalizer(&tick{}, func(*tick) {
		if k.adjust() {
			k.arm()
		}
	})
}

// adjust sets the GC percent for the live heap of the last collection; it
// reports false once stopped.
func (k *keeper) adjust() bool {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	p := Percent(k.headroom, s[0].Value.Uint64())
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return false
	}
	// Small changes of the live heap are not worth a new setting.
	if p < k.percent*9/10 || p > k.percent*11/10 {
		debug.SetGCPercent(p)
		k.percent = p
	}
	return true
}

func (k *keeper) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.stopped {
		k.stopped = true
		debug.SetGCPercent(100)
	}
}

// Percent is the GC percent that gives a live heap of live bytes room to
// grow by headroom bytes: 100·headroom/live, at least 100 and at most 10000.
func Percent(headroom, live uint64) int {
	if live == 0 || headroom <= live {
		return 100
	}
	return int(min(100*headroom/live, maxPercent))
}
