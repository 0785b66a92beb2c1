package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/notebook_launcher/transfer"
)

// EnvDir names the job folder in a worker's environment.
const EnvDir = "GOACCEL_LAUNCH_JOB"

const (
	specFile   = "job.json"
	argsFile   = "args.bin"
	resultFile = "result.bin"
)

// Spec describes a job.
type Spec struct {
	// Func names the launched function, for messages.
	Func string `json:"func"`
	// Args is the number of arguments in args.bin.
	Args int `json:"args"`
	// Display makes workers send display messages as frames on stdout.
	Display bool `json:"display,omitempty"`
	// Result makes rank 0 send back the function's result.
	Result bool `json:"result,omitempty"`
	// Parent is the id of the request that launched the job (the cell's
	// execute_request): an Output widget a worker captures into shows what
	// has that parent.
	Parent string `json:"parent,omitempty"`
}

// Job is a job folder.
type Job struct {
	Dir  string
	Spec Spec
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// CheckFunc reports why fn's type cannot be launched: it must be a function
// returning nothing, a value, an error, or a value and an error, and its
// result must be able to cross back.
func CheckFunc(t reflect.Type, name string) error {
	if t.Kind() != reflect.Func {
		return fmt.Errorf("%s is a %s, not a function", name, t)
	}
	outs := t.NumOut()
	switch {
	case outs > 2, outs == 2 && t.Out(1) != errorType:
		results := make([]string, outs)
		for i := range results {
			results[i] = t.Out(i).String()
		}
		return fmt.Errorf("%s returns (%s); a launched function returns nothing, a value, an error, or a value and an error", name, strings.Join(results, ", "))
	case outs >= 1 && t.Out(0) != errorType:
		return transfer.CheckType(t.Out(0), "the result of "+name)
	}
	return nil
}

// ResultType is the type of the value fn sends back, nil when it sends none.
func ResultType(t reflect.Type) reflect.Type {
	if t.NumOut() == 0 || t.Out(0) == errorType {
		return nil
	}
	return t.Out(0)
}

// Create makes a job folder with spec and the encoded args; names label the
// arguments in errors. It fails, writing nothing, when an argument cannot
// cross.
func Create(spec Spec, args []reflect.Value, names []string) (*Job, error) {
	data, err := transfer.Marshal(args, names)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "goaccel-job-")
	if err != nil {
		return nil, fmt.Errorf("make the job folder: %w", err)
	}
	spec.Args = len(args)
	j := &Job{Dir: dir, Spec: spec}
	b, _ := json.Marshal(spec)
	for name, content := range map[string][]byte{specFile: b, argsFile: data} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			j.Remove()
			return nil, fmt.Errorf("write the job: %w", err)
		}
	}
	return j, nil
}

// Open reads the job folder dir (a worker's EnvDir).
func Open(dir string) (*Job, error) {
	b, err := os.ReadFile(filepath.Join(dir, specFile))
	if err != nil {
		return nil, fmt.Errorf("read the launch job: %w", err)
	}
	j := &Job{Dir: dir}
	if err := json.Unmarshal(b, &j.Spec); err != nil {
		return nil, fmt.Errorf("read the launch job %s: %w", dir, err)
	}
	return j, nil
}

// Env is what a worker's environment needs to find the job.
func (j *Job) Env() []string { return []string{EnvDir + "=" + j.Dir} }

// Remove deletes the job folder.
func (j *Job) Remove() error { return os.RemoveAll(j.Dir) }

// Args decodes the arguments into values of the given types.
func (j *Job) Args(types []reflect.Type, names []string) ([]reflect.Value, error) {
	f, err := os.Open(filepath.Join(j.Dir, argsFile))
	if err != nil {
		return nil, fmt.Errorf("read the arguments: %w", err)
	}
	defer f.Close()
	return transfer.Decode(f, types, names)
}

// Result decodes rank 0's result into a value of type t.
func (j *Job) Result(t reflect.Type) (reflect.Value, error) {
	f, err := os.Open(filepath.Join(j.Dir, resultFile))
	if err != nil {
		return reflect.Value{}, fmt.Errorf("rank 0 sent no result: %w", err)
	}
	defer f.Close()
	v, err := transfer.Decode(f, []reflect.Type{t}, []string{"the result of " + j.Spec.Func})
	if err != nil {
		return reflect.Value{}, err
	}
	return v[0], nil
}

// writeResult stores rank 0's result, atomically.
func (j *Job) writeResult(v reflect.Value) error {
	data, err := transfer.Marshal([]reflect.Value{v}, []string{"the result of " + j.Spec.Func})
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(j.Dir, resultFile), data)
}

// Frame is one stack frame of a worker's panic.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
}

// Report is what a worker says about its run when it ends on its own.
type Report struct {
	Rank   int    `json:"rank"`
	Device string `json:"device"`
	// Panic is the value of a panic in the function, Frames its frames
	// (innermost first) and Stack the Go stack trace.
	Panic  string  `json:"panic,omitempty"`
	Frames []Frame `json:"frames,omitempty"`
	Stack  string  `json:"stack,omitempty"`
	// Error is an error the function returned, or why its result could not
	// be sent back.
	Error string `json:"error,omitempty"`
}

// Failed reports whether the worker's function failed.
func (r Report) Failed() bool { return r.Panic != "" || r.Error != "" }

func (j *Job) reportPath(rank int) string {
	return filepath.Join(j.Dir, "rank-"+strconv.Itoa(rank)+".json")
}

// Report reads the report of rank; ok is false when the worker wrote none
// (it was killed, or crashed outside the function's goroutine).
func (j *Job) Report(rank int) (r Report, ok bool) {
	b, err := os.ReadFile(j.reportPath(rank))
	if err != nil || json.Unmarshal(b, &r) != nil {
		return Report{}, false
	}
	return r, true
}

func (j *Job) writeReport(r Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeAtomic(j.reportPath(r.Rank), b)
}

func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// errNoJob is returned by FromEnv outside a worker.
var errNoJob = errors.New("not a worker: " + EnvDir + " is not set")

// FromEnv opens the job named by the environment.
func FromEnv() (*Job, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		return nil, errNoJob
	}
	return Open(dir)
}
