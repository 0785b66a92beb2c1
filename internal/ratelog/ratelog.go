package ratelog

import (
	"sync"
	"time"
)

// Limiter decides when a recurring message is logged. The zero value logs
// every occurrence; set Every. It is safe for concurrent use.
type Limiter struct {
	// Every is the least time between two logged occurrences.
	Every time.Duration

	mu      sync.Mutex
	next    time.Time // when the next occurrence may be logged
	skipped int       // occurrences not logged since the last logged one
}

// Allow reports whether this occurrence should be logged and, if so, how
// many occurrences were not logged since the last one that was.
func (l *Limiter) Allow() (ok bool, skipped int) {
	return l.allowAt(time.Now())
}

func (l *Limiter) allowAt(now time.Time) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Before(l.next) {
		l.skipped++
		return false, 0
	}
	skipped := l.skipped
	l.skipped = 0
	l.next = now.Add(l.Every)
	return true, skipped
}
