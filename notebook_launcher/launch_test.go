package notebook_launcher_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/syncbuf"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/tensors"
)

type syncBuffer = syncbuf.Buffer

func only(t *testing.T) []string { return []string{"-test.run=^" + t.Name() + "$"} }

// sharedDir returns a folder that the parent and its workers agree on.
func sharedDir(t *testing.T) string {
	if d := os.Getenv("NL_TEST_DIR"); d != "" {
		return d
	}
	d := t.TempDir()
	t.Setenv("NL_TEST_DIR", d)
	return d
}

func TestLaunchSetsTorchrunEnvironmentOnEveryRank(t *testing.T) {
	var out syncBuffer
	_, err := nl.Launch(func() {
		fmt.Printf("rank=%s world=%s local=%s localworld=%s addr=%s mp=%s token=%t\n",
			os.Getenv("RANK"), os.Getenv("WORLD_SIZE"), os.Getenv("LOCAL_RANK"),
			os.Getenv("LOCAL_WORLD_SIZE"), os.Getenv("MASTER_ADDR"),
			os.Getenv("ACCELERATE_MIXED_PRECISION"), os.Getenv(nl.EnvToken) != "")
	}, nl.Options{NumProcesses: 3, MixedPrecision: "bf16", Args: only(t), Stdout: &out})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	got := out.String()
	for _, want := range []string{
		"rank=0 world=3 local=0 localworld=3 addr=127.0.0.1 mp=bf16 token=true\n",
		"[rank 1] rank=1 world=3 local=1 localworld=3 addr=127.0.0.1 mp=bf16 token=true\n",
		"[rank 2] rank=2 world=3 local=2 localworld=3 addr=127.0.0.1 mp=bf16 token=true\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q; got:\n%s", want, got)
		}
	}
}

func TestLaunchFirstFailureStopsOthersAndNamesRank(t *testing.T) {
	dir := sharedDir(t)
	start := time.Now()
	var out syncBuffer
	_, err := nl.Launch(func() {
		writePid(dir)
		if os.Getenv("RANK") == "1" {
			time.Sleep(200 * time.Millisecond)
			fmt.Fprintln(os.Stderr, "boom: rank one gives up")
			os.Exit(3)
		}
		time.Sleep(60 * time.Second)
	}, nl.Options{NumProcesses: 3, Args: only(t), Stdout: &out, Stderr: &out})
	if err == nil {
		t.Fatal("Launch returned nil; want the failure of rank 1")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Launch took %v to report the failure; want < 10s", d)
	}
	for _, want := range []string{"rank 1", "exit status 3", "boom: rank one gives up"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	assertNoneAlive(t, dir)
}

func TestLaunchCancelStopsEveryWorkerWithoutOrphans(t *testing.T) {
	dir := sharedDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(pids(dir)) < 2 {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	_, err := nl.LaunchContext(ctx, func() {
		writePid(dir)
		time.Sleep(60 * time.Second)
	}, nl.Options{NumProcesses: 2, Args: only(t), Stdout: &syncBuffer{}})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("LaunchContext after cancel = %v; want an interrupted error", err)
	}
	assertNoneAlive(t, dir)
}

func TestLaunchRestartsTheWholeGroup(t *testing.T) {
	var out syncBuffer
	_, err := nl.Launch(func() {
		fmt.Printf("attempt %s\n", os.Getenv(nl.EnvRestart))
		if os.Getenv(nl.EnvRestart) == "0" && os.Getenv("RANK") == "1" {
			os.Exit(4)
		}
	}, nl.Options{NumProcesses: 2, MaxRestarts: 1, Args: only(t), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("Launch with a restart: %v", err)
	}
	if got := out.String(); !strings.Contains(got, "worker rank 1 failed (exit status 4)") ||
		!strings.Contains(got, "restart 1 of 1: every worker was stopped") || !strings.Contains(got, "[rank 1] attempt 1") {
		t.Errorf("output does not show the restart:\n%s", got)
	}
}

func TestLaunchRejectsBadOptions(t *testing.T) {
	for _, tc := range []struct {
		opts nl.Options
		want string
	}{
		{nl.Options{NumProcesses: -1}, "NumProcesses"},
		{nl.Options{MixedPrecision: "fp32"}, `"no", "fp16" or "bf16"`},
		{nl.Options{NumNodes: 2, NodeRank: 2, Port: 29500}, "NodeRank"},
		{nl.Options{NumNodes: 2}, "Port must be set"},
		{nl.Options{MaxRestarts: -2}, "MaxRestarts"},
	} {
		_, err := nl.Launch(func() {}, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Launch(%+v) = %v; want an error mentioning %q", tc.opts, err, tc.want)
		}
	}
}

func TestLaunchUnderExternalLauncherRunsInProcess(t *testing.T) {
	t.Setenv("WORLD_SIZE", "1")
	ran := false
	if _, err := nl.Launch(func() { ran = true }, nl.Options{}); err != nil || !ran {
		t.Fatalf("Launch under WORLD_SIZE: err=%v ran=%v; want fn run in this process", err, ran)
	}
}

func writePid(dir string) {
	p := filepath.Join(dir, "pid-"+os.Getenv("RANK"))
	_ = os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o644)
}

func pids(dir string) []int {
	files, _ := filepath.Glob(filepath.Join(dir, "pid-*"))
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if n, err2 := strconv.Atoi(string(b)); err == nil && err2 == nil {
			out = append(out, n)
		}
	}
	return out
}

func assertNoneAlive(t *testing.T, dir string) {
	t.Helper()
	ps := pids(dir)
	if len(ps) == 0 {
		t.Fatal("no worker wrote its pid")
	}
	for _, p := range ps {
		if !exited(p) {
			t.Errorf("worker pid %d still runs after Launch returned", p)
		}
	}
}

// exited reports whether process pid has ended: it is gone (ESRCH), or a
// zombie (state Z or X) that its parent has not reaped yet. An orphan's
// zombie waits for PID 1 or a subreaper, which reap when they get to it
// (every 2 s or so on some container inits, never on a shell that does not
// wait), so kill(pid, 0) alone can report a dead worker as alive.
func exited(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the command name in parentheses, which may itself hold ") ".
	rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
	f := strings.Fields(rest)
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func TestLaunchErrorQuotesTheWorkersPanic(t *testing.T) {
	_, err := nl.Launch(func() {
		if os.Getenv("RANK") == "1" {
			panic("loss is NaN at step 7")
		}
	}, nl.Options{NumProcesses: 2, Args: only(t), Stdout: &syncBuffer{}, Stderr: &syncBuffer{}})
	if err == nil || !strings.Contains(err.Error(), "rank 1") || !strings.Contains(err.Error(), "panic: loss is NaN at step 7") {
		t.Errorf("Launch = %v; want an error naming rank 1 and quoting its panic", err)
	}
}

// Two launchers on one host stand in for two nodes: global ranks continue
// across nodes, local ranks restart, and both agree on the world size.
func TestLaunchNumbersRanksAcrossNodes(t *testing.T) {
	// Each run its own port and token: a fixed port is taken by whatever else runs here (another
	// checkout's run of this test), and with a fixed token two runs could join each other's job.
	t.Setenv(nl.EnvToken, fmt.Sprintf("two-node-test-%d-%d", os.Getpid(), time.Now().UnixNano()))
	port := freePort(t)
	var outs [2]syncBuffer
	errs := make(chan error, 2)
	for node := 0; node < 2; node++ {
		go func(node int) {
			_, err := nl.Launch(func() {
				fmt.Printf("rank=%s local=%s group=%s world=%s\n", os.Getenv("RANK"), os.Getenv("LOCAL_RANK"),
					os.Getenv("GROUP_RANK"), os.Getenv("WORLD_SIZE"))
			}, nl.Options{NumProcesses: 2, NumNodes: 2, NodeRank: node, Port: port, Args: only(t), Stdout: &outs[node]})
			errs <- err
		}(node)
	}
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for node, want := range [][]string{
		{"rank=0 local=0 group=0 world=4", "[rank 1] rank=1 local=1 group=0 world=4"},
		{"[rank 2] rank=2 local=0 group=1 world=4", "[rank 3] rank=3 local=1 group=1 world=4"},
	} {
		for _, w := range want {
			if !strings.Contains(outs[node].String(), w) {
				t.Errorf("node %d output lacks %q:\n%s", node, w, outs[node].String())
			}
		}
	}
}

// freePort returns a port that was free a moment ago (node 0's launcher binds it next).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

type nopSink struct{}

func (nopSink) Send(string, map[string]any) {}

func TestLaunchInsideTheKernelPointsToTheMagic(t *testing.T) {
	host.ForTest(t, host.Host{Display: nopSink{}})
	_, err := nl.Launch(func() {}, nl.Options{NumProcesses: 2})
	if err == nil || !strings.Contains(err.Error(), "%accelerate launch --num_processes 2") {
		t.Errorf("Launch under the kernel = %v; want advice to use %%accelerate launch", err)
	}
}

type launchConfig struct {
	Scale float64
	Tags  []string
}

func TestLaunchPassesArgumentsAndReturnsRankZerosResultByValue(t *testing.T) {
	var out syncBuffer
	x := tensors.New([]float32{1, 2, 3}, 3)
	res, err := nl.Launch(func(c launchConfig, x *tensors.Tensor, n float64, rest ...int) (map[string]any, error) {
		return map[string]any{"rank": os.Getenv("RANK"), "sum": x.Sum().Item() * c.Scale, "n": n, "tags": c.Tags, "rest": rest}, nil
	}, nl.Options{NumProcesses: 2, Args: only(t), Stdout: &out}, launchConfig{Scale: 2, Tags: []string{"a", "b"}}, x, 3, 4, 5)
	if err != nil {
		t.Fatalf("Launch: %v\n%s", err, out.String())
	}
	got, ok := res.(map[string]any)
	if !ok {
		t.Fatalf("Launch returned %T; want map[string]any", res)
	}
	want := map[string]any{"rank": "0", "sum": 12.0, "n": 3.0, "tags": []any{"a", "b"}, "rest": []any{4, 5}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rank 0's result = %v; want %v", got, want)
	}
}

func TestLaunchRefusesWhatCannotCrossBeforeAnyWorkerStarts(t *testing.T) {
	for _, tc := range []struct {
		fn   any
		args []any
		want string
	}{
		{func(chan int) {}, []any{make(chan int)}, "argument 1 of fn: a channel (chan int)"},
		{func(float64) {}, nil, "fn takes 1 argument; the launch passed 0"},
		{func(int) {}, []any{"x"}, "argument 1 of fn is a string; fn wants a int"},
		{func() chan int { return nil }, nil, "the result of fn: a channel"},
		{func() (int, int) { return 0, 0 }, nil, "returns (int, int)"},
		{42, nil, "fn is a int, not a function"},
	} {
		start := time.Now()
		_, err := nl.Launch(tc.fn, nl.Options{NumProcesses: 2, Args: []string{"-test.run=^$"}}, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Launch(%T) = %v; want an error containing %q", tc.fn, err, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Launch(%T) took %v to refuse: did it start workers?", tc.fn, d)
		}
	}
}

func TestLaunchFailsWhenARankReturnsAnError(t *testing.T) {
	_, err := nl.Launch(func() error {
		if os.Getenv("RANK") == "1" {
			return errors.New("data shard missing")
		}
		return nil
	}, nl.Options{NumProcesses: 2, Args: only(t), Stdout: &syncBuffer{}, Stderr: &syncBuffer{}})
	if err == nil || !strings.Contains(err.Error(), "rank 1") || !strings.Contains(err.Error(), "data shard missing") {
		t.Errorf("Launch = %v; want an error naming rank 1 and its error", err)
	}
}
