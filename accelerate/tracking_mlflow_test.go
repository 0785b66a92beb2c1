package accelerate

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/trackerenv"
)

// mlflowReadScript reads the experiment argv[2] back with mlflow's own client from the
// tracking URI argv[1]: its runs' status, times, parameters, tags and every metric's history
// (timestamp, value, step), as JSON.
const mlflowReadScript = `
import json, sys
from mlflow.tracking import MlflowClient
c = MlflowClient(tracking_uri=sys.argv[1])
exp = c.get_experiment_by_name(sys.argv[2])
out = []
for r in c.search_runs([exp.experiment_id]):
    hist = {k: [[m.timestamp, repr(m.value), m.step] for m in c.get_metric_history(r.info.run_id, k)] for k in r.data.metrics}
    out.append({"status": r.info.status, "start": r.info.start_time, "end": r.info.end_time, "name": r.info.run_name,
                "params": r.data.params, "tags": r.data.tags, "metrics": hist})
print(json.dumps(out))
`

// mlflowRun is what mlflowReadScript reports of a run.
type mlflowRun struct {
	Status     string
	Start, End int64
	Name       string
	Params     map[string]string
	Tags       map[string]string
	Metrics    map[string][][3]any // timestamp, repr(value), step
}

// logMLflowRun runs the "mlflow" tracker through InitTrackers, Log and EndTraining and returns
// what it logged, with the instants (ms) around each Log call.
func logMLflowRun(t *testing.T, cfg Config) (logged []map[string]float64, steps []int, windows [][2]int64) {
	t.Helper()
	cfg.LogWith = []string{"mlflow"}
	a := soloAcc(cfg)
	config := map[string]any{"lr": 0.001, "batch_size": 64, "optimizer": "adamw", "fp16": false, "layers": []int{512, 512}}
	if err := a.InitTrackers("mnist", config); err != nil {
		t.Fatal(err)
	}
	for i, step := range []int{0, 1, 2, 5, 10} {
		v := map[string]float64{"loss": 2.5 / float64(i+1), "eval/accuracy": 0.5 + 0.04*float64(i)}
		if i == 4 {
			v["grad_norm"] = math.Inf(1)
		}
		before := time.Now().UnixMilli()
		a.Log(v, step)
		logged, steps, windows = append(logged, v), append(steps, step), append(windows, [2]int64{before, time.Now().UnixMilli()})
	}
	a.EndTraining()
	return logged, steps, windows
}

// checkMLflowRun compares what mlflow's client read with what was logged.
// An infinite value reads back as itself from the file store, and as ±math.MaxFloat64 from a
// server's SQL store (MLflow's SqlAlchemyStore clamps infinities, which databases do not keep).
func checkMLflowRun(t *testing.T, runs []mlflowRun, logged []map[string]float64, steps []int, windows [][2]int64, clampsInf bool) {
	t.Helper()
	if len(runs) != 1 {
		t.Fatalf("mlflow read %d runs, want 1: %+v", len(runs), runs)
	}
	r := runs[0]
	if r.Status != "FINISHED" || r.Start == 0 || r.End < r.Start || !strings.HasPrefix(r.Name, "mnist-") {
		t.Errorf("run status %s, start %d, end %d, name %q", r.Status, r.Start, r.End, r.Name)
	}
	wantParams := map[string]string{"lr": "0.001", "batch_size": "64", "optimizer": "adamw", "fp16": "False", "layers": "[512,512]"}
	for k, v := range wantParams {
		if r.Params[k] != v {
			t.Errorf("param %s = %q, want %q (all %v)", k, r.Params[k], v, r.Params)
		}
	}
	if r.Tags["mlflow.runName"] != r.Name || r.Tags["mlflow.source.type"] != "LOCAL" || r.Tags["team"] != "vision" || r.Tags["mlflow.user"] == "" {
		t.Errorf("tags %v", r.Tags)
	}
	for _, key := range []string{"loss", "eval/accuracy", "grad_norm"} {
		var want [][3]float64
		var win [][2]int64
		for i, v := range logged {
			if x, ok := v[key]; ok {
				want = append(want, [3]float64{0, x, float64(steps[i])})
				win = append(win, windows[i])
			}
		}
		got := r.Metrics[key]
		if len(got) != len(want) {
			t.Fatalf("metric %s: mlflow read %v, logged %v", key, got, want)
		}
		for i := range got {
			value, err := strconv.ParseFloat(got[i][1].(string), 64)
			if err != nil {
				t.Fatal(err)
			}
			w := want[i][1]
			if clampsInf && math.IsInf(w, 0) {
				w = math.Copysign(math.MaxFloat64, w)
			}
			if value != w || got[i][2] != want[i][2] {
				t.Errorf("metric %s #%d: value %v step %v, logged %v at %v", key, i, value, got[i][2], want[i][1], want[i][2])
			}
			if ts := int64(got[i][0].(float64)); ts < win[i][0] || ts > win[i][1] {
				t.Errorf("metric %s #%d: timestamp %d outside its Log call [%d, %d]", key, i, ts, win[i][0], win[i][1])
			}
		}
	}
}

// TestMLflowTrackerFolderIsReadByMLflow logs through the "mlflow" tracker into
// ProjectDir/logs/mlruns and reads it back with mlflow's MlflowClient from its file: URI
// (MLflow 3 reads its file store once MLFLOW_ALLOW_FILE_STORE=true), then migrates it to
// SQLite with `mlflow migrate-filestore` and reads the run back from there.
func TestMLflowTrackerFolderIsReadByMLflow(t *testing.T) {
	py := trackerenv.Python(t, "mlflow")
	t.Setenv("MLFLOW_TRACKING_URI", "")
	t.Setenv("MLFLOW_TAGS", `{"team": "vision"}`)
	dir := t.TempDir()
	logged, steps, windows := logMLflowRun(t, Config{ProjectDir: dir})
	uri := "file://" + filepath.Join(dir, "logs", "mlruns")
	out := trackerenv.Run(t, py, mlflowReadScript, []string{"MLFLOW_ALLOW_FILE_STORE=true"}, uri, "mnist")
	var runs []mlflowRun
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	checkMLflowRun(t, runs, logged, steps, windows, false)

	// MLflow 3's way off the file store, `mlflow migrate-filestore`, takes the folder as it is.
	db := "sqlite:///" + filepath.Join(t.TempDir(), "mlflow.db")
	migrate := exec.Command(filepath.Join(filepath.Dir(py), "mlflow"), "migrate-filestore", "--source", filepath.Join(dir, "logs", "mlruns"), "--target", db)
	migrate.Env = append(os.Environ(), "MLFLOW_ALLOW_FILE_STORE=true")
	if b, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("mlflow migrate-filestore: %v\n%s", err, b)
	}
	runs = nil
	if err := json.Unmarshal(trackerenv.Run(t, py, mlflowReadScript, nil, db, "mnist"), &runs); err != nil {
		t.Fatal(err)
	}
	checkMLflowRun(t, runs, logged, steps, windows, true)
}

// startMLflowServer runs `mlflow server` on a free loopback port with a SQLite store in a
// temporary folder, waits for its health check and returns its URI; the server stops with
// the test.
func startMLflowServer(t *testing.T, py string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	cmd := exec.Command(filepath.Join(filepath.Dir(py), "mlflow"), "server", "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--workers", "1",
		"--backend-store-uri", "sqlite:///"+filepath.Join(dir, "mlflow.db"), "--artifacts-destination", filepath.Join(dir, "artifacts"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		logf.Close()
	})
	uri := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(uri + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Logf("mlflow server answered on %s after %v", uri, time.Since(deadline.Add(-90*time.Second)).Round(time.Millisecond))
				return uri
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logf.Name())
			t.Fatalf("mlflow server did not answer on %s within 90 s:\n%s", uri, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestMLflowTrackerLogsToATrackingServer points MLFLOW_TRACKING_URI at `mlflow server` on
// loopback: the tracker talks to its REST API, and mlflow's client reads the run back from
// the server.
func TestMLflowTrackerLogsToATrackingServer(t *testing.T) {
	py := trackerenv.Python(t, "mlflow")
	uri := startMLflowServer(t, py)
	t.Setenv("MLFLOW_TRACKING_URI", uri)
	t.Setenv("MLFLOW_TAGS", `{"team": "vision"}`)
	dir := t.TempDir()
	start := time.Now()
	logged, steps, windows := logMLflowRun(t, Config{ProjectDir: dir})
	t.Logf("the run took %v through the REST API", time.Since(start).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, "logs", "mlruns")); err == nil {
		t.Error("with a tracking server the tracker also wrote a local mlruns folder")
	}
	var runs []mlflowRun
	out := trackerenv.Run(t, py, mlflowReadScript, nil, uri, "mnist")
	if err := json.Unmarshal(out, &runs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	checkMLflowRun(t, runs, logged, steps, windows, true)
}
