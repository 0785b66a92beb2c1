package job

import (
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

func newJob(t *testing.T, spec Spec, args ...any) *Job {
	t.Helper()
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		vals[i] = reflect.ValueOf(a)
	}
	j, err := Create(spec, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Remove() })
	return j
}

func TestServeRunsTheFunctionAndRankZeroSendsItsResult(t *testing.T) {
	t.Setenv("RANK", "0")
	j := newJob(t, Spec{Func: "scale", Result: true}, []float64{1, 2}, 3)
	opened, err := Open(j.Dir)
	if err != nil {
		t.Fatal(err)
	}
	status := opened.Serve(reflect.ValueOf(func(xs []float64, k float32) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = x * float64(k)
		}
		return out
	}), nil)
	if status != 0 {
		t.Fatalf("Serve = %d; want 0", status)
	}
	res, err := j.Result(reflect.TypeOf([]float64(nil)))
	if err != nil || !reflect.DeepEqual(res.Interface(), []float64{3, 6}) {
		t.Errorf("Result = %v, %v; want [3 6]", res, err)
	}
	if rep, ok := j.Report(0); !ok || rep.Device != "cpu" || rep.Failed() {
		t.Errorf("report = %+v, %v; want a cpu report without failure", rep, ok)
	}
}

func TestServeReportsPanicsErrorsAndBadArguments(t *testing.T) {
	t.Setenv("RANK", "1")
	for _, tc := range []struct {
		name   string
		fn     any
		args   []any
		status int
		check  func(Report) bool
	}{
		{"panic", func() { var s []int; _ = s[3] }, nil, 2, func(r Report) bool {
			return strings.Contains(r.Panic, "index out of range [3] with length 0") && len(r.Frames) > 0 &&
				strings.HasSuffix(r.Frames[0].File, "job_test.go") && strings.Contains(r.Stack, "goroutine")
		}},
		{"error", func() (int, error) { return 0, errString("disk full") }, nil, 1, func(r Report) bool { return r.Error == "f returned an error: disk full" }},
		{"arguments", func(a, b int) {}, []any{1}, 1, func(r Report) bool { return strings.Contains(r.Error, "f takes 2 arguments; the launch passed 1") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := newJob(t, Spec{Func: "f"}, tc.args...)
			if got := j.Serve(reflect.ValueOf(tc.fn), nil); got != tc.status {
				t.Errorf("Serve = %d; want %d", got, tc.status)
			}
			rep, ok := j.Report(1)
			if !ok || !tc.check(rep) {
				t.Errorf("report = %+v (found %v)", rep, ok)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestDisplayFramesRoundTrip(t *testing.T) {
	var b strings.Builder
	payload := `{"type":"update_display_data","content":{"data":{"text/plain":"50%"},"transient":{"display_id":"x"}}}`
	if err := workers.WriteFrame(&b, []byte(payload)); err != nil {
		t.Fatal(err)
	}
	typ, content, _, err := ParseFrame([]byte(payload))
	if err != nil || typ != "update_display_data" || content["transient"].(map[string]any)["display_id"] != "x" {
		t.Errorf("ParseFrame = %q, %v, %v", typ, content, err)
	}
	for _, bad := range []string{`{"type":"execute_reply"}`, `{"type":"comm"}`, `not json`} {
		if _, _, _, err := ParseFrame([]byte(bad)); err == nil {
			t.Errorf("ParseFrame(%s): want an error", bad)
		}
	}
	typ, _, m, err := ParseFrame([]byte(`{"type":"comm","comm":{"type":"comm_msg","comm_id":"c1","data":{"method":"update"}}}`))
	if err != nil || typ != "comm" || m.CommID != "c1" || m.Data["method"] != "update" {
		t.Errorf("ParseFrame of a comm frame = %q, %+v, %v", typ, m, err)
	}
}
