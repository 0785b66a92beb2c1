package mlflow

import (
	"fmt"
	"net/url"
	"os"
	osuser "os/user"
	"path/filepath"
	"strings"
	"time"
)

// Metric is one value of a metric at a step.
type Metric struct {
	Key   string
	Value float64
	Step  int64
	Time  time.Time
}

// Store is where runs are recorded: a tracking folder or a tracking server.
type Store interface {
	// Experiment returns the id of the active experiment named name, creating it when there
	// is none (with artifactLocation, "" for the store's default).
	Experiment(name, artifactLocation string) (string, error)
	// CreateRun starts a run of the experiment, named name, with tags; it returns its id.
	CreateRun(experimentID, name, user string, start time.Time, tags map[string]string) (string, error)
	// LogParams records the run's parameters.
	LogParams(runID string, params map[string]string) error
	// LogMetrics records metric values.
	LogMetrics(runID string, metrics []Metric) error
	// SetTags sets tags of the run.
	SetTags(runID string, tags map[string]string) error
	// EndRun marks the run finished (status "FINISHED", "FAILED" or "KILLED") at end.
	EndRun(runID, status string, end time.Time) error
	// Close releases what the store holds open.
	Close() error
}

// MaxParamLength is the longest parameter value MLflow accepts (MAX_PARAM_VAL_LENGTH).
const MaxParamLength = 6000

// Open returns the store a tracking URI names: an http:// or https:// URI is a tracking
// server, a file: URI or a plain path a tracking folder (made when missing). Other schemes
// (sqlite:, databricks, …) are refused, naming the ones goaccel writes.
func Open(uri string) (Store, error) {
	if uri == "" {
		return nil, fmt.Errorf("mlflow: no tracking URI")
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" || len(u.Scheme) == 1 { // a Windows drive letter is a path
		return OpenFolder(uri)
	}
	switch u.Scheme {
	case "http", "https":
		return NewClient(uri), nil
	case "file":
		p := u.Path
		if p == "" {
			p = u.Opaque // file:relative/path
		}
		return OpenFolder(p)
	}
	return nil, fmt.Errorf("mlflow: tracking URI %q: goaccel records runs in a tracking folder (file:… or a path) or on a tracking server (http://…); "+
		"for a %s store run `mlflow server --backend-store-uri %s` and set MLFLOW_TRACKING_URI to its http:// address", uri, u.Scheme, uri)
}

// absPath is p made absolute.
func absPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("mlflow: %w", err)
	}
	return abs, nil
}

// ValidName reports why MLflow would refuse name as a metric, parameter or tag key: it allows
// letters, digits, underscores, dashes, periods, spaces, colons and slashes, and no path
// that leaves the run's folder.
func ValidName(name string) error {
	if name == "" {
		return fmt.Errorf("mlflow: an empty name")
	}
	for _, r := range name {
		ok := r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || r == ':' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
		if !ok {
			return fmt.Errorf("mlflow: name %q has %q; MLflow allows letters, digits, underscores, dashes, periods, spaces, colons and slashes", name, r)
		}
	}
	if strings.HasPrefix(name, "/") || filepath.Clean(name) != name || name == "." || strings.HasPrefix(name, "../") || name == ".." {
		return fmt.Errorf("mlflow: name %q is not a plain relative path (no leading slash, no . or .. parts, no repeated slashes)", name)
	}
	return nil
}

// User is the current user's name, as mlflow records it in a run's mlflow.user tag.
func User() string {
	for _, k := range []string{"USER", "LOGNAME", "USERNAME"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	if u, err := osuser.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}

// millis is t in milliseconds since the Unix epoch, MLflow's timestamps.
func millis(t time.Time) int64 { return t.UnixMilli() }
