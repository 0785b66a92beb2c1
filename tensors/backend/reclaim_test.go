package backend

import "testing"

// TestPacerIsDueByBytesOrByBuffers: a collection comes due once the bytes charged exceed the
// budget, or once more than maxCharged buffers were charged however small; credits count back
// both. (Charge only marks the collection due; the test clears the mark instead of collecting.)
func TestPacerIsDueByBytesOrByBuffers(t *testing.T) {
	cases := []struct {
		name           string
		budget         int64
		buffers, bytes int
		credit         int // buffers released again
		wantDue        bool
	}{
		{"under both bounds", 2 << 20, 100, 1 << 10, 0, false},
		{"bytes over the budget", 2 << 20, 3, 1 << 20, 0, true},
		{"bytes over the budget, one released", 2 << 20, 3, 1 << 20, 1, false},
		{"many small buffers", 1 << 30, maxCharged + 1, 1 << 10, 0, true},
		{"many small buffers, some released", 1 << 30, maxCharged + 1, 1 << 10, 2, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			due.Store(false)
			p := NewPacer("test", tc.budget, tc.budget)
			for range tc.buffers {
				p.Charge(tc.bytes)
				if tc.credit > 0 {
					p.Credit(tc.bytes)
					tc.credit--
				}
			}
			if got := due.Load() && duePacer.Load() == p; got != tc.wantDue {
				t.Fatalf("due = %v, want %v (%d buffers of %d bytes)", got, tc.wantDue, tc.buffers, tc.bytes)
			}
			due.Store(false)
		})
	}
}
