package ratelog

import (
	"testing"
	"time"
)

func TestLimiterLogsFirstThenOncePerInterval(t *testing.T) {
	l := Limiter{Every: 10 * time.Second}
	t0 := time.Unix(1000, 0)
	steps := []struct {
		at      time.Duration
		ok      bool
		skipped int
	}{
		{0, true, 0},
		{time.Second, false, 0},
		{2 * time.Second, false, 0},
		{9 * time.Second, false, 0},
		{10 * time.Second, true, 3},
		{11 * time.Second, false, 0},
		{25 * time.Second, true, 1},
		{40 * time.Second, true, 0},
	}
	for _, s := range steps {
		ok, skipped := l.allowAt(t0.Add(s.at))
		if ok != s.ok || skipped != s.skipped {
			t.Errorf("at %v: Allow = %v, %d; want %v, %d", s.at, ok, skipped, s.ok, s.skipped)
		}
	}
}

func TestZeroLimiterLogsEverything(t *testing.T) {
	var l Limiter
	for i := range 3 {
		if ok, _ := l.Allow(); !ok {
			t.Fatalf("occurrence %d not logged", i)
		}
	}
}
