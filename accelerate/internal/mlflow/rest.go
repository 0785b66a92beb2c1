package mlflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
)

// client is a tracking server's REST API (MLflow's /api/2.0/mlflow endpoints). It
// authenticates as mlflow's client does from the environment: MLFLOW_TRACKING_TOKEN (a bearer
// token), else MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD (basic).
type client struct {
	base string
	http *http.Client
}

// NewClient returns the REST API of the tracking server at base (http://host:port).
func NewClient(base string) Store {
	return &client{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: 2 * time.Minute}}
}

// apiError is the error body a tracking server answers with.
type apiError struct {
	Code    string `json:"error_code"`
	Message string `json:"message"`
	status  int
}

func (e *apiError) Error() string {
	return fmt.Sprintf("mlflow server: %s (HTTP %d): %s", e.Code, e.status, e.Message)
}

// call sends a request to endpoint (relative to /api/2.0/mlflow/) and decodes the answer into
// out (nil: ignored). A GET sends in as query parameters.
func (c *client) call(method, endpoint string, in any, out any) error {
	u := c.base + "/api/2.0/mlflow/" + endpoint
	var body io.Reader
	if method == http.MethodGet {
		if q, ok := in.(url.Values); ok {
			u += "?" + q.Encode()
		}
	} else {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("mlflow: encode %s: %w", endpoint, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		return fmt.Errorf("mlflow: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if tok := os.Getenv("MLFLOW_TRACKING_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	} else if user := os.Getenv("MLFLOW_TRACKING_USERNAME"); user != "" {
		req.SetBasicAuth(user, os.Getenv("MLFLOW_TRACKING_PASSWORD"))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("mlflow: %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("mlflow: %s: %w", endpoint, err)
	}
	if resp.StatusCode != http.StatusOK {
		e := &apiError{status: resp.StatusCode}
		if json.Unmarshal(b, e) != nil || e.Code == "" {
			e.Code, e.Message = http.StatusText(resp.StatusCode), strings.TrimSpace(string(b))
		}
		return fmt.Errorf("mlflow: %s: %w", endpoint, e)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("mlflow: %s: decode the answer: %w", endpoint, err)
	}
	return nil
}

func (c *client) Experiment(name, artifactLocation string) (string, error) {
	var got struct {
		Experiment struct {
			ID    string `json:"experiment_id"`
			Stage string `json:"lifecycle_stage"`
		} `json:"experiment"`
	}
	err := c.call(http.MethodGet, "experiments/get-by-name", url.Values{"experiment_name": {name}}, &got)
	var ae *apiError
	switch {
	case err == nil && got.Experiment.Stage != "deleted":
		return got.Experiment.ID, nil
	case err == nil:
		return "", fmt.Errorf("mlflow: experiment %q is deleted; restore it or use another name", name)
	case !errors.As(err, &ae) || ae.Code != "RESOURCE_DOES_NOT_EXIST":
		return "", err
	}
	req := map[string]any{"name": name}
	if artifactLocation != "" {
		req["artifact_location"] = artifactLocation
	}
	var created struct {
		ID string `json:"experiment_id"`
	}
	if err := c.call(http.MethodPost, "experiments/create", req, &created); err != nil {
		return "", err
	}
	return created.ID, nil
}

type keyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func keyValues(m map[string]string) []keyValue {
	out := make([]keyValue, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, keyValue{k, m[k]})
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (c *client) CreateRun(experimentID, name, user string, start time.Time, tags map[string]string) (string, error) {
	all := map[string]string{"mlflow.runName": name, "mlflow.user": user}
	for k, v := range tags {
		all[k] = v
	}
	var got struct {
		Run struct {
			Info struct {
				ID string `json:"run_id"`
			} `json:"info"`
		} `json:"run"`
	}
	err := c.call(http.MethodPost, "runs/create", map[string]any{"experiment_id": experimentID, "user_id": user,
		"run_name": name, "start_time": millis(start), "tags": keyValues(all)}, &got)
	return got.Run.Info.ID, err
}

// number is a metric value as protobuf's JSON mapping writes a double: NaN and the infinities
// as the strings "NaN", "Infinity" and "-Infinity".
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Infinity"`), nil
	}
	return json.Marshal(f)
}

type metricJSON struct {
	Key       string `json:"key"`
	Value     number `json:"value"`
	Timestamp int64  `json:"timestamp"`
	Step      int64  `json:"step"`
}

// The most entries one runs/log-batch request takes (MLflow's MAX_METRICS_PER_BATCH,
// MAX_PARAMS_TAGS_PER_BATCH).
const (
	maxMetricsPerBatch = 1000
	maxParamsPerBatch  = 100
)

func (c *client) logBatch(runID string, metrics []metricJSON, params, tags []keyValue) error {
	req := map[string]any{"run_id": runID}
	if len(metrics) > 0 {
		req["metrics"] = metrics
	}
	if len(params) > 0 {
		req["params"] = params
	}
	if len(tags) > 0 {
		req["tags"] = tags
	}
	return c.call(http.MethodPost, "runs/log-batch", req, nil)
}

func (c *client) LogParams(runID string, params map[string]string) error {
	kv := keyValues(params)
	for i := 0; i < len(kv); i += maxParamsPerBatch {
		if err := c.logBatch(runID, nil, kv[i:min(i+maxParamsPerBatch, len(kv))], nil); err != nil {
			return err
		}
	}
	return nil
}

func (c *client) SetTags(runID string, tags map[string]string) error {
	kv := keyValues(tags)
	for i := 0; i < len(kv); i += maxParamsPerBatch {
		if err := c.logBatch(runID, nil, nil, kv[i:min(i+maxParamsPerBatch, len(kv))]); err != nil {
			return err
		}
	}
	return nil
}

func (c *client) LogMetrics(runID string, metrics []Metric) error {
	ms := make([]metricJSON, len(metrics))
	for i, m := range metrics {
		if err := ValidName(m.Key); err != nil {
			return err
		}
		ms[i] = metricJSON{Key: m.Key, Value: number(m.Value), Timestamp: millis(m.Time), Step: m.Step}
	}
	for i := 0; i < len(ms); i += maxMetricsPerBatch {
		if err := c.logBatch(runID, ms[i:min(i+maxMetricsPerBatch, len(ms))], nil, nil); err != nil {
			return err
		}
	}
	return nil
}

func (c *client) EndRun(runID, status string, end time.Time) error {
	return c.call(http.MethodPost, "runs/update", map[string]any{"run_id": runID, "status": status, "end_time": millis(end)}, nil)
}

func (c *client) Close() error { return nil }
