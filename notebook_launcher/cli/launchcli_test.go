package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfigFileFollowsHFHome(t *testing.T) {
	t.Setenv("HF_HOME", "/x/hf")
	if got, want := DefaultConfigFile(), "/x/hf/accelerate/default_config.yaml"; got != want {
		t.Errorf("DefaultConfigFile() = %q; want %q", got, want)
	}
	t.Setenv("HF_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "/c")
	if got, want := DefaultConfigFile(), "/c/huggingface/accelerate/default_config.yaml"; got != want {
		t.Errorf("DefaultConfigFile() = %q; want %q", got, want)
	}
}

func TestConfigDefaultWritesAccelerateKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	var out bytes.Buffer
	if err := ConfigCommand([]string{"default", "--config_file", path, "--mixed_precision", "bf16"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, key := range []string{"compute_environment: LOCAL_MACHINE", "distributed_type:", "mixed_precision: bf16",
		"num_processes:", "num_machines: 1", "machine_rank: 0", "gpu_ids: all", "use_cpu:"} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("config lacks %q:\n%s", key, b)
		}
	}
}

func TestConfigInteractiveAnswers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	answers := "1\n1\n3\n2\n" // multi-CPU, 1 machine, 3 processes, bf16
	if err := ConfigCommand([]string{"--config_file", path}, strings.NewReader(answers), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	c, ok, err := LoadConfig(path)
	if err != nil || !ok {
		t.Fatalf("LoadConfig: ok=%v err=%v", ok, err)
	}
	if c.DistributedType != "MULTI_CPU" || c.NumProcesses != 3 || c.MixedPrecision != "bf16" || !c.UseCPU {
		t.Errorf("config from answers = %+v; want MULTI_CPU, 3 processes, bf16, use_cpu", c)
	}
}

func TestLaunchFlagsOverrideConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := SaveConfig(path, Config{NumProcesses: 4, NumMachines: 1, MixedPrecision: "fp16", GPUIDs: "0,1"}); err != nil {
		t.Fatal(err)
	}
	f := Flags{configFile: path, numProcesses: 2, numMachines: -1, machineRank: -1, mainPort: -1, maxRestarts: -1, threads: 3, gradAccum: 4, mixedPrecision: "bf16"}
	opts, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.NumProcesses != 2 || opts.MixedPrecision != "bf16" || opts.GradientAccumulationSteps != 4 {
		t.Errorf("opts = %+v; want 2 processes, bf16 and 4 accumulation steps from the flags", opts)
	}
	if opts.ThreadsPerProcess != 3 || opts.GPUIDs != "0,1" {
		t.Errorf("opts = %+v; want the threads flag and the config's gpu_ids", opts)
	}
}

func TestLaunchRejectsBadCombinations(t *testing.T) {
	base := Flags{configFile: "", numProcesses: -1, numMachines: -1, machineRank: -1, mainPort: -1, maxRestarts: -1, threads: -1, gradAccum: -1}
	t.Setenv("HF_HOME", t.TempDir())
	for _, tc := range []struct {
		mod  func(*Flags)
		want string
	}{
		{func(f *Flags) { f.mixedPrecision = "fp8" }, "mixed_precision"},
		{func(f *Flags) { f.numProcesses, f.numMachines = 3, 2 }, "not a multiple"},
		{func(f *Flags) { f.numProcesses, f.numMachines = 4, 2 }, "--main_process_ip"},
		{func(f *Flags) { f.configFile = "/nonexistent/c.yaml" }, "does not exist"},
	} {
		f := base
		tc.mod(&f)
		if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resolve(%+v) = %v; want an error mentioning %q", f, err, tc.want)
		}
	}
}

func TestLaunchBuildsPackageAndRunsEveryRank(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	var out, errb bytes.Buffer
	err := LaunchCommand(context.Background(), []string{"--num_processes", "2", "--mixed_precision", "bf16", "--cpu",
		"./testdata/hello", "a1"}, &out, &errb)
	if err != nil {
		t.Fatalf("launch: %v\n%s", err, errb.String())
	}
	for _, want := range []string{"rank=0 world=2 mp=bf16 cpu=true args=[a1]", "[rank 1] rank=1 world=2 mp=bf16 cpu=true args=[a1]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	t.Setenv("HELLO_FAIL_RANK", "1")
	err = LaunchCommand(context.Background(), []string{"--num-processes=2", "./testdata/hello"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "rank 1") || !strings.Contains(err.Error(), "failing on purpose") {
		t.Errorf("launch with a failing rank = %v; want an error naming rank 1 and its stderr", err)
	}
}

func TestEnvReportsMachineAndConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := SaveConfig(path, BasicConfig("no", 0)); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := EnvCommand([]string{"--config_file", path}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Go version: go", "- CPU: ", "logical cores", "- RAM: ", "- GPUs: ", "compute_environment: LOCAL_MACHINE"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("env output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestLaunchTrainsDataParallelWithTheFlagsPrecision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a training program")
	}
	t.Setenv("HF_HOME", t.TempDir())
	var out, errb bytes.Buffer
	err := LaunchCommand(context.Background(), []string{"--num_processes=2", "--mixed_precision=bf16", "./testdata/train"}, &out, &errb)
	if err != nil {
		t.Fatalf("launch: %v\n%s%s", err, out.String(), errb.String())
	}
	if want := "precision=bf16 procs=2 learned=true\n"; out.String() != want {
		t.Errorf("output %q; want only rank 0's %q", out.String(), want)
	}
}

func TestLaunchThreadsFlagSetsEachWorkersGOMAXPROCS(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv("HELLO_PRINT_ENV", "GOMAXPROCS")
	var out, errb bytes.Buffer
	err := LaunchCommand(context.Background(), []string{"--num_processes", "2", "--num_cpu_threads_per_process", "3", "./testdata/hello"}, &out, &errb)
	if err != nil {
		t.Fatalf("launch: %v\n%s", err, errb.String())
	}
	if strings.Count(out.String(), "GOMAXPROCS=3") != 2 {
		t.Errorf("output %q; want GOMAXPROCS=3 on both ranks", out.String())
	}
}

// `--num_processes 0` used to run one process silently and 10000 started
// thousands of workers before running out of files: counts below 1 are
// refused, and counts the machine cannot carry are refused before
// anything is built or started.
func TestLaunchRefusesProcessCountsBeforeStartingAnything(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--num_processes", "0"}, "at least 1"},
		{[]string{"--num_processes=-2"}, "at least 1"},
		{[]string{"--num-processes", "0"}, "at least 1"},
		{[]string{"--num_machines", "0"}, "at least 1"},
		{[]string{"--num_processes", "10000"}, "cores"},
	} {
		var out, errb bytes.Buffer
		start := time.Now()
		err := LaunchCommand(context.Background(), append(tc.args, "./testdata/hello"), &out, &errb)
		if err == nil || !strings.Contains(err.Error()+errb.String(), tc.want) {
			t.Errorf("launch %v = %v; want an error mentioning %q\n%s", tc.args, err, tc.want, errb.String())
		}
		if strings.Contains(out.String(), "rank=") || time.Since(start) > 10*time.Second {
			t.Errorf("launch %v started workers or built the program before refusing:\n%s", tc.args, out.String())
		}
	}
}

func TestCheckResources(t *testing.T) {
	for _, tc := range []struct {
		local, world int
		files        uint64
		cores        int
		want         string // "" = accepted
	}{
		{2, 2, 1024, 2, ""},
		{32, 32, 1024, 2, ""},
		{33, 33, 1 << 20, 2, "more than 2 cores"},
		{10000, 10000, 4096, 1024, "open files in the launcher"},
		{8, 2000, 1024, 8, "in each process"},
		{200, 200, 512, 64, "launcher"},
	} {
		err := checkResources(tc.local, tc.world, tc.files, tc.cores)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkResources(%d, %d, %d files, %d cores) = %v; want %q", tc.local, tc.world, tc.files, tc.cores, err, tc.want)
		}
	}
}

func TestConfigMagicShowsAndSetsKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	var out bytes.Buffer
	if err := ConfigMagic([]string{"--config_file", path}, &out); err != nil || !strings.Contains(out.String(), "no configuration saved") {
		t.Fatalf("show without a file: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := ConfigMagic([]string{"--config_file=" + path, "num_processes=3", "mixed_precision=bf16", "use_cpu=true"}, &out); err != nil {
		t.Fatal(err)
	}
	c, ok, err := LoadConfig(path)
	if err != nil || !ok || c.NumProcesses != 3 || c.MixedPrecision != "bf16" || !c.UseCPU || c.ComputeEnvironment != "LOCAL_MACHINE" {
		t.Fatalf("saved config = %+v (%v, %v)", c, ok, err)
	}
	out.Reset()
	if err := ConfigMagic([]string{"--config_file", path}, &out); err != nil || !strings.Contains(out.String(), "num_processes: 3") {
		t.Errorf("show: %v\n%s", err, out.String())
	}
	for _, bad := range [][]string{{"num_procs=2"}, {"num_processes=two"}, {"mixed_precision=fp8"}, {"verbose"}} {
		err := ConfigMagic(append([]string{"--config_file", path}, bad...), &out)
		if err == nil {
			t.Errorf("ConfigMagic(%v): want an error", bad)
		}
	}
	if c2, _, _ := LoadConfig(path); c2 != c {
		t.Errorf("a refused change altered the file: %+v", c2)
	}
}

// `goaccel launch .` in a package's folder (what an export's README says)
// used to build into the build folder itself and fail with "permission
// denied" when starting the workers.
func TestResolveProgramBuildsAPackageNamedByAnyPath(t *testing.T) {
	hello, err := filepath.Abs("testdata/hello")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, target, want string }{
		{".", "./testdata/hello", "hello"},
		{".", "testdata/hello/.", "hello"},
		{hello, ".", "hello"},
		{hello, "main.go", "main"},
	} {
		t.Run(tt.target, func(t *testing.T) {
			t.Chdir(tt.dir)
			var stderr bytes.Buffer
			bin, cleanup, err := resolveProgram(context.Background(), tt.target, &stderr)
			if err != nil {
				t.Fatalf("resolveProgram(%q) in %s: %v\n%s", tt.target, tt.dir, err, stderr.String())
			}
			defer cleanup()
			if st, err := os.Stat(bin); err != nil || !st.Mode().IsRegular() || filepath.Base(bin) != tt.want {
				t.Errorf("resolveProgram(%q) in %s = %s (%v); want the executable %s", tt.target, tt.dir, bin, err, tt.want)
			}
		})
	}
}
