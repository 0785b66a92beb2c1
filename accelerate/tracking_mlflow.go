package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/mlflow"
)

// mlflowTracker is the "mlflow" tracker (Accelerate's MLflowTracker): the experiment named
// by the project (or MLFLOW_EXPERIMENT_NAME), one run per InitTrackers with the config as its
// parameters, MLFLOW_TAGS (a JSON object) as its tags, and each Log as metrics at a step. It
// records on the tracking server MLFLOW_TRACKING_URI names (http://…), or in a tracking folder
// in MLflow's file store layout: the URI's file: folder, else LoggingDir/mlruns.
type mlflowTracker struct {
	uri   string
	store mlflow.Store
	run   string
}

// newMLflowTracker makes the tracker for a logging folder ("" for the working directory).
func newMLflowTracker(loggingDir string) *mlflowTracker {
	uri := os.Getenv("MLFLOW_TRACKING_URI")
	if uri == "" {
		uri = filepath.Join(loggingDir, "mlruns")
	}
	return &mlflowTracker{uri: uri}
}

func (m *mlflowTracker) Start(project string, config map[string]any) (err error) {
	if id := os.Getenv("MLFLOW_RUN_ID"); id != "" {
		return fmt.Errorf("mlflow: MLFLOW_RUN_ID is %s: goaccel's tracker starts a new run and does not resume one; unset MLFLOW_RUN_ID", id)
	}
	name := project
	if env := os.Getenv("MLFLOW_EXPERIMENT_NAME"); env != "" {
		name = env
	}
	tags := map[string]string{}
	if env := os.Getenv("MLFLOW_TAGS"); env != "" {
		var raw map[string]any
		if err := json.Unmarshal([]byte(env), &raw); err != nil {
			return fmt.Errorf("mlflow: MLFLOW_TAGS is not a JSON object: %w", err)
		}
		for k, v := range raw {
			tags[k] = paramString(v)
		}
	}
	tags["mlflow.source.name"] = filepath.Base(os.Args[0])
	tags["mlflow.source.type"] = "LOCAL"
	if m.store, err = mlflow.Open(m.uri); err != nil {
		return err
	}
	exp, err := m.store.Experiment(name, "")
	if err != nil {
		return err
	}
	start := time.Now()
	runName := project + "-" + start.Format("20060102-150405")
	if m.run, err = m.store.CreateRun(exp, runName, mlflow.User(), start, tags); err != nil {
		return err
	}
	params := map[string]string{}
	for k, v := range config {
		s := paramString(v)
		if len(s) > mlflow.MaxParamLength {
			// As Accelerate: MLflow refuses longer values, so the parameter is left out.
			fmt.Fprintf(os.Stderr, "accelerate: mlflow: parameter %q is %d characters long, more than MLflow's %d; it is not logged\n", k, len(s), mlflow.MaxParamLength)
			continue
		}
		params[k] = s
	}
	return m.store.LogParams(m.run, params)
}

// paramString is v as MLflow records a parameter: its text (Python's str of the value).
func paramString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return fmt.Sprint(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return strings.TrimSpace(fmt.Sprint(v))
	}
	return string(b)
}

func (m *mlflowTracker) Log(values map[string]float64, step int) error {
	now := time.Now()
	ms := make([]mlflow.Metric, 0, len(values))
	for _, k := range sortedKeys(values) {
		ms = append(ms, mlflow.Metric{Key: k, Value: values[k], Step: int64(step), Time: now})
	}
	return m.store.LogMetrics(m.run, ms)
}

func (m *mlflowTracker) Finish() error {
	if m.store == nil {
		return nil
	}
	err := m.store.EndRun(m.run, "FINISHED", time.Now())
	if cerr := m.store.Close(); err == nil {
		err = cerr
	}
	return err
}
