package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Tracker records experiment metrics (Accelerate's GeneralTracker). The
// built-in ones are "jsonl", "notebook", "tensorboard" and "mlflow"
// (Config.LogWith); AddTracker adds any other. A tracker that also records
// images or text implements ImageTracker or TextTracker. A *plots.Live is a Tracker too: add the same one to several
// Accelerators (one per run of a sweep) to draw their runs in one figure.
type Tracker interface {
	// Start begins a run of project with its hyper-parameters.
	Start(project string, config map[string]any) error
	// Log records values at step.
	Log(values map[string]float64, step int) error
	// Finish flushes and closes the run.
	Finish() error
}

// AddTracker adds t to the trackers InitTrackers starts (main process only).
func (a *Accelerator) AddTracker(t Tracker) { a.extra = append(a.extra, t) }

// InitTrackers starts the configured trackers on the main process; on the
// others trackers do nothing.
func (a *Accelerator) InitTrackers(project string, config map[string]any) error {
	if !a.IsMainProcess() {
		return nil
	}
	var ts []Tracker
	for _, name := range a.cfg.LogWith {
		switch name {
		case "jsonl", "tensorboard":
			if a.cfg.LoggingDir == "" {
				return fmt.Errorf("accelerate: InitTrackers: the %s tracker writes to LoggingDir/%s; set Config.ProjectDir (LoggingDir is then ProjectDir/logs) or Config.LoggingDir", name, project)
			}
			if name == "jsonl" {
				ts = append(ts, &jsonlTracker{dir: a.cfg.LoggingDir})
			} else {
				ts = append(ts, &tensorboardTracker{dir: a.cfg.LoggingDir})
			}
		case "mlflow":
			ts = append(ts, newMLflowTracker(a.cfg.LoggingDir))
		case "notebook":
			ts = append(ts, &notebookTracker{acc: a})
		}
	}
	ts = append(ts, a.extra...)
	for _, t := range ts {
		if err := t.Start(project, config); err != nil {
			return fmt.Errorf("accelerate: InitTrackers %s: %w", project, err)
		}
	}
	a.trackers = ts
	return nil
}

// Log hands values at step to every tracker (main process only).
func (a *Accelerator) Log(values map[string]float64, step int) {
	for _, t := range a.trackers {
		if err := t.Log(values, step); err != nil {
			fmt.Fprintf(os.Stderr, "accelerate: tracker %T: %v\n", t, err)
		}
	}
}

// jsonlTracker appends one JSON object per Log call to
// ProjectDir/logs/<project>/metrics.jsonl and writes the run's config to config.json.
type jsonlTracker struct {
	dir string
	f   *os.File
}

func (j *jsonlTracker) Start(project string, config map[string]any) error {
	dir := filepath.Join(j.dir, project)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cb, err := json.MarshalIndent(config, "", "  ")
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cb, 0o644); err != nil {
		return err
	}
	j.f, err = os.OpenFile(filepath.Join(dir, "metrics.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	return err
}

func (j *jsonlTracker) Log(values map[string]float64, step int) error {
	rec := map[string]any{"step": step, "time": time.Now().UTC().Format(time.RFC3339Nano)}
	for k, v := range values {
		rec[k] = v
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = j.f.Write(append(b, '\n'))
	return err
}

func (j *jsonlTracker) Finish() error {
	if j.f == nil {
		return nil
	}
	return j.f.Close()
}
