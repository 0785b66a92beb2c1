package mlflow

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRESTClientSpeaksTheTrackingAPI runs a run against a fake tracking server: the
// experiment is created when get-by-name answers RESOURCE_DOES_NOT_EXIST, metrics carry
// protobuf JSON's "NaN"/"Infinity", more than 1,000 metrics go in several log-batch requests,
// and a server error comes back with its code and message.
func TestRESTClientSpeaksTheTrackingAPI(t *testing.T) {
	var calls []string
	var values []any
	batches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ep := strings.TrimPrefix(r.URL.Path, "/api/2.0/mlflow/")
		calls = append(calls, r.Method+" "+ep)
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		json.Unmarshal(body, &req)
		switch ep {
		case "experiments/get-by-name":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error_code": "RESOURCE_DOES_NOT_EXIST", "message": "no experiment"}`)
		case "experiments/create":
			io.WriteString(w, `{"experiment_id": "7"}`)
		case "runs/create":
			if req["experiment_id"] != "7" {
				t.Errorf("runs/create %v", req)
			}
			io.WriteString(w, `{"run": {"info": {"run_id": "abc"}}}`)
		case "runs/log-batch":
			if ms, ok := req["metrics"].([]any); ok {
				batches++
				if len(ms) > maxMetricsPerBatch {
					t.Errorf("a batch of %d metrics", len(ms))
				}
				if len(values) == 0 {
					for _, m := range ms[:2] {
						values = append(values, m.(map[string]any)["value"])
					}
				}
			}
			io.WriteString(w, `{}`)
		case "runs/update":
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error_code": "INVALID_PARAMETER_VALUE", "message": "bad status"}`)
		}
	}))
	defer srv.Close()
	s, err := Open(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := s.Experiment("e", "")
	if err != nil || exp != "7" {
		t.Fatalf("experiment %q, %v", exp, err)
	}
	run, err := s.CreateRun(exp, "r", "me", time.Now(), nil)
	if err != nil || run != "abc" {
		t.Fatalf("run %q, %v", run, err)
	}
	ms := []Metric{{Key: "a", Value: math.NaN()}, {Key: "b", Value: math.Inf(1)}}
	for i := range 1500 {
		ms = append(ms, Metric{Key: "loss", Value: float64(i), Step: int64(i), Time: time.Now()})
	}
	if err := s.LogMetrics(run, ms); err != nil {
		t.Fatal(err)
	}
	if batches != 2 || values[0] != "NaN" || values[1] != "Infinity" {
		t.Errorf("%d batches, first values %v", batches, values)
	}
	err = s.EndRun(run, "FINISHED", time.Now())
	if err == nil || !strings.Contains(err.Error(), "INVALID_PARAMETER_VALUE") || !strings.Contains(err.Error(), "bad status") {
		t.Errorf("EndRun against a failing server: %v", err)
	}
	if want := "GET experiments/get-by-name,POST experiments/create,POST runs/create"; !strings.HasPrefix(strings.Join(calls, ","), want) {
		t.Errorf("calls %v", calls)
	}
}

// TestFolderIsMLflowsFileStoreLayout writes a run and checks the files mlflow reads: the
// default experiment, the run's meta.yaml, a metric line per value, parameters and tags as
// files, nested keys as folders.
func TestFolderIsMLflowsFileStoreLayout(t *testing.T) {
	root := filepath.Join(t.TempDir(), "mlruns")
	s, err := Open("file://" + root)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := s.Experiment("proj", "")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Experiment("proj", ""); again != exp || len(exp) != 18 {
		t.Errorf("experiment ids %q, %q", exp, again)
	}
	run, err := s.CreateRun(exp, "r1", "me", time.UnixMilli(1000), map[string]string{"team": "x"})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.LogParams(run, map[string]string{"opt/lr": "0.1"}))
	must(s.LogMetrics(run, []Metric{{Key: "eval/acc", Value: 0.5, Step: 3, Time: time.UnixMilli(2000)}, {Key: "eval/acc", Value: 1e-5, Step: 4, Time: time.UnixMilli(3000)}}))
	must(s.EndRun(run, "FINISHED", time.UnixMilli(4000)))
	must(s.Close())
	read := func(parts ...string) string {
		b, err := os.ReadFile(filepath.Join(append([]string{root}, parts...)...))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if m := read("0", "meta.yaml"); !strings.Contains(m, "name: Default") {
		t.Errorf("default experiment %s", m)
	}
	meta := read(exp, run, "meta.yaml")
	for _, w := range []string{"status: 3", "end_time: 4000", "start_time: 1000", "run_name: r1", "experiment_id: \"" + exp + "\"", "lifecycle_stage: active"} {
		if !strings.Contains(meta, w) {
			t.Errorf("meta.yaml lacks %q:\n%s", w, meta)
		}
	}
	if got := read(exp, run, "metrics", "eval", "acc"); got != "2000 0.5 3\n3000 1e-05 4\n" {
		t.Errorf("metric file %q", got)
	}
	if read(exp, run, "params", "opt", "lr") != "0.1" || read(exp, run, "tags", "team") != "x" || read(exp, run, "tags", "mlflow.runName") != "r1" {
		t.Error("params or tags")
	}
	for _, bad := range []string{"../x", "/abs", "a//b", "a$b", ""} {
		if s.LogMetrics(run, []Metric{{Key: bad}}) == nil {
			t.Errorf("metric name %q accepted", bad)
		}
	}
	if _, err := Open("sqlite:///mlflow.db"); err == nil || !strings.Contains(err.Error(), "mlflow server") {
		t.Errorf("a sqlite URI: %v", err)
	}
}
