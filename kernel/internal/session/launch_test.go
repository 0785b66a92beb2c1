package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/syncbuf"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/launch"
)

// TestMain lets the test binary be its own interpreted worker: the session
// starts os.Executable() with the worker subcommand.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == launch.WorkerCommand {
		os.Exit(launch.WorkerMain())
	}
	os.Exit(m.Run())
}

// launchSession is a session whose launches use temporary config and cache folders.
func launchSession(t *testing.T, cells ...string) (*Session, *syncbuf.Buffer) {
	t.Helper()
	return launchSessionWith(t, Options{}, cells...)
}

// launchSessionWith is launchSession with opts (its Stdout and Stderr are
// the buffer it returns).
func launchSessionWith(t *testing.T, opts Options, cells ...string) (*Session, *syncbuf.Buffer) {
	t.Helper()
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv(gobuild.EnvCache, t.TempDir())
	out := &syncbuf.Buffer{}
	opts.Stdout, opts.Stderr = out, out
	s := hosted(t, opts)
	for _, c := range cells {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("cell %q: %s: %s", c, r.Error.Ename, r.Error.Evalue)
		}
	}
	return s, out
}

// run executes a cell after clearing the output.
func run(s *Session, out *syncbuf.Buffer, code string) Result {
	out.Reset()
	return s.Execute(context.Background(), code)
}

func text(r Result) string {
	s, _ := r.Data["text/plain"].(string)
	return s
}

const trainDecls = `type Config struct {
	Scale float64
	tag   string
}
type Metrics struct{ Sum float64; Rank string; Tag string }
func train(c Config, xs []float64) Metrics {
	fmt.Println("hello from rank", os.Getenv("RANK"))
	sum := 0.0
	for _, x := range xs {
		sum += x * c.Scale
	}
	return Metrics{Sum: sum, Rank: os.Getenv("RANK"), Tag: c.tag}
}
func hello() { fmt.Println("hi from", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE")) }`

func TestLaunchMagicSendsArgumentsAndReturnsRankZerosResult(t *testing.T) {
	s, out := launchSession(t, trainDecls, `cfg := Config{Scale: 2, tag: "run 1"}`)
	r := run(s, out, "%accelerate launch --num_processes 2 -o m train(cfg, []float64{1, 2, 3})")
	if r.Error != nil {
		t.Fatalf("launch: %s: %s\n%s", r.Error.Ename, r.Error.Evalue, out)
	}
	if got := text(r); got != "{12 0 run 1}" {
		t.Errorf("cell result %q; want rank 0's Metrics {12 0 run 1}", got)
	}
	for _, want := range []string{"hello from rank 0\n", "[rank 1] hello from rank 1\n", "train ran on 2 workers (cpu, cpu; interpreted) in "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if r := run(s, out, `m.Sum + 1`); text(r) != "13" {
		t.Errorf("m.Sum + 1 = %q, %+v; want 13 (the -o variable)", text(r), r.Error)
	}
	r = run(s, out, "%accelerate launch --num_processes 3 hello")
	if r.Error != nil || !strings.Contains(out.String(), "[rank 2] hi from 2 of 3") || r.Data != nil {
		t.Errorf("bare name launch: %+v %v\n%s", r.Error, r.Data, out)
	}
}

func TestLaunchFromACellWithTheAPI(t *testing.T) {
	s, out := launchSession(t, trainDecls, `cfg := Config{Scale: 3}`)
	r := run(s, out, "res, err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2}, cfg, []float64{1, 1})\nm := res.(Metrics)\nm.Sum")
	if r.Error != nil || text(r) != "6" {
		t.Fatalf("API launch: %q %+v\n%s", text(r), r.Error, out)
	}
	// An unchecked failure still fails the cell, as an exception would.
	r = run(s, out, "notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2}, cfg)\nfmt.Println(\"went on\")")
	if r.Error == nil || r.Error.Ename != "WorkerError" || !strings.Contains(r.Error.Evalue, "train takes 2 arguments; the launch passed 1") {
		t.Errorf("a failed launch in a cell = %+v; want the WorkerError as the cell's error", r.Error)
	}
	r = run(s, out, "notebook_launcher.Launch(func() {}, notebook_launcher.Options{})")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "declared at the top level of a cell") {
		t.Errorf("launching a closure = %+v; want an error asking for a declared function", r.Error)
	}
}

func TestWorkersGetTheFinalDeclarationsButNoStatements(t *testing.T) {
	s, out := launchSession(t,
		"type Point struct{ X int }\nfunc (p Point) Norm() int { return p.X }",
		"var scale = 10",
		"func report() string { return fmt.Sprint(Point{X: 1}.Norm(), scale) }",
		"type Point struct{ X, Y int }\nfunc (p Point) Norm() int { return p.X + p.Y + 100 }",
		"func report() string { return fmt.Sprint(Point{X: 1, Y: 2}.Norm(), scale) }",
		"step := 5", // a statement: workers do not see it
		"func usesStep() int { return step }",
		"var shift = 7",
		"func usesShift() int { return shift }",
	)
	r := run(s, out, "%accelerate launch --num_processes 1 report")
	if r.Error != nil || text(r) != "103 10" && text(r) != `"103 10"` {
		t.Fatalf("report on a worker = %q, %+v; want 103 10 (latest Point and report, var scale from its declaration)\n%s", text(r), r.Error, out)
	}
	r = run(s, out, "%accelerate launch usesStep")
	if r.Error == nil || r.Error.Ename != "NameError" || !strings.Contains(r.Error.Evalue, "uses step, which a top-level statement defined (cell [6], line 1)") {
		t.Errorf("a function using a := variable = %+v; want a NameError naming the statement", r.Error)
	}
	if r := run(s, out, "%accelerate launch usesShift"); r.Error != nil || text(r) != "7" {
		t.Errorf("usesShift = %q %+v; want 7", text(r), r.Error)
	}
}

func TestLaunchErrorsNameTheRankAndTheCellLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a compiled worker")
	}
	s, out := launchSession(t, `func crash(n int) int {
	if os.Getenv("RANK") == "1" {
		var xs []int
		return xs[n]
	}
	return 0
}`, "type T struct{ A int }\nfunc get(t T) int { return t.A }", "type T struct{ B int }")
	for _, flags := range []string{"", "--compile"} {
		r := run(s, out, "%accelerate launch --num_processes 2 "+flags+" crash(5)")
		if r.Error == nil || r.Error.Ename != "WorkerError" || !strings.Contains(r.Error.Evalue, "worker rank 1 failed: panic:") ||
			!strings.Contains(r.Error.Evalue, "(cell [1], line 4)") || !strings.Contains(strings.Join(r.Error.Traceback, "\n"), "return xs[n]") {
			t.Errorf("%s: panic on rank 1 = %+v; want a WorkerError naming rank 1 and cell [1], line 4\n%s", flags, r.Error, out)
		}
		r = run(s, out, "%accelerate launch "+flags+" get(T{})")
		if r.Error == nil || r.Error.Ename != "CompileError" || !strings.Contains(r.Error.Evalue, "cell [2], line 2:") {
			t.Errorf("%s: a program that does not compile = %+v; want a CompileError at cell [2], line 2", flags, r.Error)
		}
	}
	r := run(s, out, "%accelerate launch crash(make(chan int))")
	if r.Error == nil || r.Error.Ename != "ArgumentError" || !strings.Contains(r.Error.Evalue, "argument 1 of crash (make(chan int)): a channel") {
		t.Errorf("a channel argument = %+v; want an ArgumentError naming it", r.Error)
	}
}

func TestLaunchPanicInAGoroutineNamesTheCellLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a compiled worker")
	}
	s, out := launchSession(t, `func crashLiteral() {
	done := make(chan bool)
	go func() {
		var m map[string]int
		if os.Getenv("RANK") == "1" {
			m["x"] = 1
		}
		done <- true
	}()
	<-done
	time.Sleep(time.Second)
}`, `func consume(ch chan int) {
	for v := range ch {
		if v == 3 && os.Getenv("RANK") == "1" {
			var xs []int
			_ = xs[v]
		}
	}
}

func crashNamed() {
	ch := make(chan int)
	go consume(ch)
	for i := range 10 {
		ch <- i
	}
	time.Sleep(time.Second)
}`)
	for _, flags := range []string{"", "--compile"} {
		for _, c := range []struct{ fn, msg, where, code, goStmt string }{
			{"crashLiteral", "assignment to entry in nil map", "(cell [1], line 6)", `m["x"] = 1`, "go func() {"},
			{"crashNamed", "index out of range", "(cell [2], line 5)", "_ = xs[v]", "go consume(ch)"},
		} {
			r := run(s, out, "%accelerate launch --num_processes 2 "+flags+" "+c.fn)
			if r.Error == nil {
				t.Errorf("%s %s: no error; want rank 1's panic\n%s", flags, c.fn, out)
				continue
			}
			tb := strings.Join(r.Error.Traceback, "\n")
			if r.Error.Ename != "WorkerError" || !strings.Contains(r.Error.Evalue, "worker rank 1 failed: panic: ") || !strings.Contains(r.Error.Evalue, c.msg) ||
				!strings.Contains(r.Error.Evalue, c.where) || !strings.Contains(tb, c.code) {
				t.Errorf("%s %s: panic in a goroutine on rank 1 = %s: %s\n%s\nwant a WorkerError with %q at %s: %s", flags, c.fn, r.Error.Ename, r.Error.Evalue, tb, c.msg, c.where, c.code)
			}
			if flags == "" && !strings.Contains(tb, c.goStmt) {
				t.Errorf("%s: traceback\n%s\nlacks the go statement %q", c.fn, tb, c.goStmt)
			}
		}
	}
}

func TestLaunchInterruptStopsEveryWorkerAndKeepsTheSession(t *testing.T) {
	dir := t.TempDir()
	s, out := launchSession(t, `func spin(dir string) {
	os.WriteFile(dir+"/pid-"+os.Getenv("RANK"), []byte(fmt.Sprint(os.Getpid())), 0o644)
	for {
		time.Sleep(10 * time.Millisecond)
	}
}`, "keep := 42", "func hello() int { return 1 }")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() { done <- s.Execute(ctx, fmt.Sprintf("%%accelerate launch --num_processes 2 spin(%q)", dir)) }()
	pids := waitPids(t, dir, 2)
	start := time.Now()
	cancel()
	var r Result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the interrupted launch did not return within 10 s")
	}
	if !r.Interrupted {
		t.Errorf("interrupted launch = %+v; want Interrupted", r.Error)
	}
	for _, pid := range pids {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("worker %d still exists after the interrupt", pid)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the workers took %v to stop; want under 2 s", d)
	}
	if r := run(s, out, "keep"); text(r) != "42" {
		t.Errorf("keep = %q after the interrupt; want 42", text(r))
	}
	if r := run(s, out, "%accelerate launch hello"); r.Error != nil || text(r) != "1" {
		t.Errorf("relaunch after an interrupt = %q %+v", text(r), r.Error)
	}
}

func waitPids(t *testing.T, dir string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "pid-*"))
		if len(files) == n {
			var pids []int
			for _, f := range files {
				b, _ := os.ReadFile(f)
				if p, err := strconv.Atoi(string(b)); err == nil {
					pids = append(pids, p)
				}
			}
			if len(pids) == n {
				return pids
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d workers did not write their pids in 30 s", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForStopFile is a worker function that writes its pid into dir and
// returns once dir/stop exists.
const waitForStopFile = `func wait(dir string) {
	os.WriteFile(dir+"/pid-"+os.Getenv("RANK"), []byte(fmt.Sprint(os.Getpid())), 0o644)
	for {
		if _, err := os.Stat(dir + "/stop"); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}`

func TestASecondLaunchWhileOneRunsIsRefused(t *testing.T) {
	dir := t.TempDir()
	s, out := launchSession(t, waitForStopFile, "func hello() {}")
	if r := run(s, out, fmt.Sprintf("go notebook_launcher.Launch(wait, notebook_launcher.Options{NumProcesses: 1}, %q)", dir)); r.Error != nil {
		t.Fatal(r.Error)
	}
	waitPids(t, dir, 1)
	r := run(s, out, "%accelerate launch hello")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "another launch is running (wait, started by cell [3]") {
		t.Errorf("second launch = %+v; want it refused, naming the running one", r.Error)
	}
	os.WriteFile(filepath.Join(dir, "stop"), nil, 0o644)
	deadline := time.Now().Add(30 * time.Second)
	for {
		r = run(s, out, "%accelerate launch hello")
		if r.Error == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("launch after the first finished: %+v", r.Error)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestDisplaysFromEveryRankReachTheCell(t *testing.T) {
	sink := &fakeSink{}
	s, out := launchSessionWith(t, Options{Display: sink}, `func show() {
	rank := os.Getenv("RANK")
	display.HTML("<b>rank " + rank + "</b>")
	if rank == "1" {
		h := display.New("step 0")
		h.Update("step 1")
		display.Clear(true)
	}
}`)
	if r := run(s, out, "%accelerate launch --num_processes 2 show"); r.Error != nil {
		t.Fatalf("%+v\n%s", r.Error, out)
	}
	var got []string
	for _, m := range sink.got {
		data, _ := m.content["data"].(map[string]any)
		got = append(got, fmt.Sprintf("%s %v", m.typ, data["text/html"])+fmt.Sprint(data["text/plain"]))
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"display_data <b>rank 0</b>", "display_data <b>rank 1</b>", "display_data <nil>step 0", "update_display_data <nil>step 1", "clear_output"} {
		if !strings.Contains(joined, want) {
			t.Errorf("display messages lack %q:\n%s", want, joined)
		}
	}
}

func TestExportWritesAProgramThatRunsTheFunction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the exported program")
	}
	dir := filepath.Join(t.TempDir(), "job")
	s, out := launchSession(t, trainDecls, `cfg := Config{Scale: 2, tag: "exported"}`)
	r := run(s, out, fmt.Sprintf("%%accelerate export --num_processes 2 %s train(cfg, []float64{1, 2})", dir))
	if r.Error != nil {
		t.Fatalf("export: %+v\n%s", r.Error, out)
	}
	for _, f := range []string{"main.go", "notebook.go", "go.mod", "go.sum", "args.bin", "README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("export did not write %s", f)
		}
	}
	bin := filepath.Join(t.TempDir(), "prog")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	// As its README says: plain go build, with no network.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "GOPROXY=") {
			build.Env = append(build.Env, kv)
		}
	}
	build.Env = append(build.Env, "GOFLAGS=", "GOPROXY=off")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the exported program: %v\n%s", err, b)
	}
	got, err := exec.Command(bin).CombinedOutput()
	if err != nil || !strings.Contains(string(got), "hello from rank 0") || !strings.Contains(string(got), "[rank 1] hello from rank 1") {
		t.Errorf("the exported program: %v\n%s", err, got)
	}
}

// A function that returns as soon as it joined the group used to end its
// process while its peers still read from it (they failed with "rank 1
// lost"): workers now leave the group together before exiting.
func TestWorkersThatReturnRightAfterJoiningTheGroupLeaveCleanly(t *testing.T) {
	s, out := launchSession(t, `import "github.com/goaccel/goaccel/accelerate"`,
		`func precision() string { return fmt.Sprint(accelerate.New(accelerate.Config{}).MixedPrecision(), " ", os.Getenv("WORLD_SIZE")) }`)
	for i := 0; i < 5; i++ {
		if r := run(s, out, "%accelerate launch --num_processes 3 --mixed_precision bf16 precision"); r.Error != nil || text(r) != "bf16 3" {
			t.Fatalf("launch %d: %q %+v\n%s", i, text(r), r.Error, out)
		}
	}
}

// TestALaunchAGoroutineStartsOutlivesItsCellUntilAnInterrupt: the executor
// cancels a cell's context when the cell ends; a launch that a goroutine of
// the cell started goes on, and an interrupt of a later cell stops it.
func TestALaunchAGoroutineStartsOutlivesItsCellUntilAnInterrupt(t *testing.T) {
	dir := t.TempDir()
	s, out := launchSession(t, waitForStopFile, "func hello() {}")
	ctx, cancel := context.WithCancel(context.Background())
	// The sleep keeps the cell running while the goroutine's launch starts.
	code := fmt.Sprintf("go notebook_launcher.Launch(wait, notebook_launcher.Options{NumProcesses: 1}, %q)\ntime.Sleep(300 * time.Millisecond)", dir)
	if r := s.Execute(ctx, code); r.Error != nil {
		t.Fatal(r.Error)
	}
	cancel()
	pid := waitPids(t, dir, 1)[0]
	time.Sleep(500 * time.Millisecond)
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
		t.Fatalf("the worker stopped when its launching cell ended: %v", err)
	}
	if r := run(s, out, "%accelerate launch hello"); r.Error == nil || !strings.Contains(r.Error.Evalue, "another launch is running") {
		t.Fatalf("second launch = %+v; want it refused while the first runs", r.Error)
	}

	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() { done <- s.Execute(ctx, "for {\n\ttime.Sleep(10 * time.Millisecond)\n}") }()
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case r := <-done:
		if !r.Interrupted {
			t.Fatalf("the cell was not interrupted: %+v", r.Error)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the interrupted cell did not return within 10 s")
	}
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); errors.Is(err, os.ErrNotExist) {
			break
		}
		// The workers get a second after SIGINT before SIGKILL; the rest is
		// slack for a loaded machine (CI runs packages side by side).
		if time.Since(start) > 30*time.Second {
			st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			t.Fatalf("an interrupt left the background launch's worker running for 30 s: %.80q; output:\n%s", st, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for !strings.Contains(out.String(), "the launch of wait started by cell [3] failed: context canceled") {
		if time.Since(start) > 40*time.Second {
			t.Fatalf("no report of the stopped background launch; output:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := run(s, out, "%accelerate launch hello")
		if r.Error == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("launch after the interrupted one: %+v", r.Error)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
