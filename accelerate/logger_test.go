package accelerate

import (
	"bytes"
	"strings"
	"testing"
)

func TestLoggerLogsOnMainProcessOnlyUnlessAllProcesses(t *testing.T) {
	for _, tc := range []struct {
		rank int
		all  bool
		want bool
	}{
		{0, false, true},
		{1, false, false},
		{1, true, true},
	} {
		var buf bytes.Buffer
		l := newLogger("train", tc.rank, &buf)
		if tc.all {
			l = l.AllProcesses()
		}
		l.Info("epoch done", "loss", 0.5)
		l.Debug("hidden at the default level")
		got := buf.String()
		if logged := got != ""; logged != tc.want {
			t.Errorf("rank %d all=%v: logged=%v (%q); want %v", tc.rank, tc.all, logged, got, tc.want)
		}
		if tc.want && (!strings.Contains(got, "[RANK 1]") && !strings.Contains(got, "[RANK 0]") || !strings.Contains(got, "loss=0.5") || strings.Contains(got, "hidden")) {
			t.Errorf("rank %d: log line %q lacks the rank prefix or the attribute, or shows debug", tc.rank, got)
		}
	}
}
