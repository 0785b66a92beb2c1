package workers

import "testing"

// The worker to report is the one that failed first for a reason of its own, not a rank that
// ended because it saw that one gone.
func TestRootCauseIsTheFailureThatIsNotAPeerLoss(t *testing.T) {
	lost := &ExitError{Rank: 0, Status: "exit status 2", Panic: "panic: accelerate: Backward: dist: all-reduce on rank 0: rank 1 lost (host vm at 127.0.0.1): connection closed"}
	lostPlain := &ExitError{Rank: 2, Status: "exit status 1", StderrTail: []string{"error: rank 1 lost: its process exited"}}
	killed := &ExitError{Rank: 1, Status: "signal: killed"}
	own := &ExitError{Rank: 3, Status: "exit status 2", Panic: "panic: boom"}
	tests := []struct {
		name  string
		fails []*ExitError
		want  *ExitError
	}{
		{"none", nil, nil},
		{"the killed worker after a peer's report", []*ExitError{lost, killed}, killed},
		{"a plain report too", []*ExitError{lostPlain, lost, killed}, killed},
		{"the first of two of their own", []*ExitError{own, killed}, own},
		{"only reports of lost peers", []*ExitError{lost, lostPlain}, lost},
	}
	for _, tt := range tests {
		got := rootCause(tt.fails)
		if tt.want == nil {
			if got != nil {
				t.Errorf("%s: %v, want nil", tt.name, got)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("%s: %v, want rank %d's failure", tt.name, got, tt.want.Rank)
		}
	}
}
