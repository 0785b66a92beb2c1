package mlflow

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// folder is MLflow's file store: one folder per experiment (its meta.yaml, tags/), one per run
// inside it (meta.yaml, params/, metrics/, tags/, artifacts/), a file per parameter, metric
// and tag. A metric's file has a line per value: "<timestamp ms> <value> <step>".
type folder struct {
	root string // absolute

	mu      sync.Mutex
	metrics map[string]*os.File // open metric files, by path
	runs    map[string]string   // run folders found, by run id
}

// experimentMeta is an experiment's meta.yaml, in the order mlflow writes it.
type experimentMeta struct {
	ArtifactLocation string `yaml:"artifact_location"`
	CreationTime     int64  `yaml:"creation_time"`
	ExperimentID     string `yaml:"experiment_id"`
	LastUpdateTime   int64  `yaml:"last_update_time"`
	LifecycleStage   string `yaml:"lifecycle_stage"`
	Name             string `yaml:"name"`
}

// runMeta is a run's meta.yaml, in the order mlflow writes it. Status is RunStatus's number
// (1 running, 3 finished, 4 failed, 5 killed); source_type 4 is LOCAL.
type runMeta struct {
	ArtifactURI    string   `yaml:"artifact_uri"`
	EndTime        *int64   `yaml:"end_time"`
	EntryPointName string   `yaml:"entry_point_name"`
	ExperimentID   string   `yaml:"experiment_id"`
	LifecycleStage string   `yaml:"lifecycle_stage"`
	RunID          string   `yaml:"run_id"`
	RunName        string   `yaml:"run_name"`
	RunUUID        string   `yaml:"run_uuid"`
	SourceName     string   `yaml:"source_name"`
	SourceType     int      `yaml:"source_type"`
	SourceVersion  string   `yaml:"source_version"`
	StartTime      int64    `yaml:"start_time"`
	Status         int      `yaml:"status"`
	Tags           []string `yaml:"tags"`
	UserID         string   `yaml:"user_id"`
}

// runStatus maps a status name to the number meta.yaml stores.
var runStatus = map[string]int{"RUNNING": 1, "SCHEDULED": 2, "FINISHED": 3, "FAILED": 4, "KILLED": 5}

// OpenFolder returns the file store at dir, made with MLflow's default experiment ("0",
// "Default") when it does not exist, as mlflow's FileStore makes it.
func OpenFolder(dir string) (Store, error) {
	root, err := absPath(dir)
	if err != nil {
		return nil, err
	}
	f := &folder{root: root, metrics: map[string]*os.File{}, runs: map[string]string{}}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		if err := f.createExperiment("0", "Default", ""); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("mlflow: tracking folder: %w", err)
	}
	return f, nil
}

// fileURI is the file: URI of an absolute path.
func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

func writeYAML(path string, v any) error {
	b, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Errorf("mlflow: encode %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("mlflow: %w", err)
	}
	return nil
}

func (f *folder) createExperiment(id, name, artifactLocation string) error {
	dir := filepath.Join(f.root, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("mlflow: make the experiment folder: %w", err)
	}
	if artifactLocation == "" {
		artifactLocation = fileURI(dir)
	}
	now := millis(time.Now())
	return writeYAML(filepath.Join(dir, "meta.yaml"), experimentMeta{ArtifactLocation: artifactLocation,
		CreationTime: now, ExperimentID: id, LastUpdateTime: now, LifecycleStage: "active", Name: name})
}

func (f *folder) Experiment(name, artifactLocation string) (string, error) {
	entries, err := os.ReadDir(f.root)
	if err != nil {
		return "", fmt.Errorf("mlflow: read the tracking folder: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(f.root, e.Name(), "meta.yaml"))
		if err != nil {
			continue // .trash, or not an experiment
		}
		var m experimentMeta
		if yaml.Unmarshal(b, &m) == nil && m.Name == name && m.LifecycleStage == "active" {
			return m.ExperimentID, nil
		}
	}
	// mlflow numbers new experiments with a random 18-digit integer.
	n, err := rand.Int(rand.Reader, big.NewInt(9e17))
	if err != nil {
		return "", fmt.Errorf("mlflow: experiment id: %w", err)
	}
	id := strconv.FormatInt(n.Int64()+1e17, 10)
	return id, f.createExperiment(id, name, artifactLocation)
}

// runDir returns the folder of run id (a run's folder sits in its experiment's).
func (f *folder) runDir(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\.`) {
		return "", fmt.Errorf("mlflow: run id %q is not one", id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if dir, ok := f.runs[id]; ok {
		return dir, nil
	}
	matches, _ := filepath.Glob(filepath.Join(f.root, "*", id, "meta.yaml"))
	if len(matches) != 1 {
		return "", fmt.Errorf("mlflow: run %s is not in %s", id, f.root)
	}
	f.runs[id] = filepath.Dir(matches[0])
	return f.runs[id], nil
}

func (f *folder) CreateRun(experimentID, name, user string, start time.Time, tags map[string]string) (string, error) {
	expDir := filepath.Join(f.root, experimentID)
	if _, err := os.Stat(filepath.Join(expDir, "meta.yaml")); err != nil {
		return "", fmt.Errorf("mlflow: experiment %s: %w", experimentID, err)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("mlflow: run id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40 // a version 4 UUID, as uuid.uuid4().hex
	b[8] = b[8]&0x3f | 0x80
	id := fmt.Sprintf("%x", b)
	dir := filepath.Join(expDir, id)
	for _, sub := range []string{"metrics", "params", "artifacts", "tags"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return "", fmt.Errorf("mlflow: make the run folder: %w", err)
		}
	}
	meta := runMeta{ArtifactURI: fileURI(filepath.Join(dir, "artifacts")), ExperimentID: experimentID, LifecycleStage: "active",
		RunID: id, RunName: name, RunUUID: id, SourceType: 4, StartTime: millis(start), Status: runStatus["RUNNING"], Tags: []string{}, UserID: user}
	if err := writeYAML(filepath.Join(dir, "meta.yaml"), meta); err != nil {
		return "", err
	}
	all := map[string]string{"mlflow.runName": name, "mlflow.user": user}
	for k, v := range tags {
		all[k] = v
	}
	return id, f.SetTags(id, all)
}

// writeValues writes each value to the file of its key under the run's sub folder.
func (f *folder) writeValues(runID, sub string, values map[string]string) error {
	dir, err := f.runDir(runID)
	if err != nil {
		return err
	}
	for k, v := range values {
		if err := ValidName(k); err != nil {
			return err
		}
		p := filepath.Join(dir, sub, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("mlflow: %w", err)
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			return fmt.Errorf("mlflow: %w", err)
		}
	}
	return nil
}

func (f *folder) LogParams(runID string, params map[string]string) error {
	return f.writeValues(runID, "params", params)
}

func (f *folder) SetTags(runID string, tags map[string]string) error {
	return f.writeValues(runID, "tags", tags)
}

func (f *folder) LogMetrics(runID string, metrics []Metric) error {
	dir, err := f.runDir(runID)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range metrics {
		if err := ValidName(m.Key); err != nil {
			return err
		}
		p := filepath.Join(dir, "metrics", filepath.FromSlash(m.Key))
		w := f.metrics[p]
		if w == nil {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("mlflow: %w", err)
			}
			if w, err = os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
				return fmt.Errorf("mlflow: %w", err)
			}
			f.metrics[p] = w
		}
		line := strconv.FormatInt(millis(m.Time), 10) + " " + strconv.FormatFloat(m.Value, 'g', -1, 64) + " " + strconv.FormatInt(m.Step, 10) + "\n"
		if _, err := w.WriteString(line); err != nil {
			return fmt.Errorf("mlflow: metric %s: %w", m.Key, err)
		}
	}
	return nil
}

func (f *folder) EndRun(runID, status string, end time.Time) error {
	code, ok := runStatus[status]
	if !ok {
		return fmt.Errorf("mlflow: run status %q; use FINISHED, FAILED or KILLED", status)
	}
	dir, err := f.runDir(runID)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "meta.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("mlflow: %w", err)
	}
	var meta runMeta
	if err := yaml.Unmarshal(b, &meta); err != nil {
		return fmt.Errorf("mlflow: read %s: %w", path, err)
	}
	ms := millis(end)
	meta.Status, meta.EndTime = code, &ms
	return writeYAML(path, meta)
}

func (f *folder) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var first error
	for p, w := range f.metrics {
		if err := w.Close(); err != nil && first == nil {
			first = fmt.Errorf("mlflow: %w", err)
		}
		delete(f.metrics, p)
	}
	return first
}
