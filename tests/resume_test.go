package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/syncbuf"
)

// launched is a `goaccel launch` running in the background.
type launched struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{}
	err  error
}

func startLaunch(t *testing.T, goaccel string, args ...string) *launched {
	t.Helper()
	l := &launched{cmd: exec.Command(goaccel, append([]string{"launch"}, args...)...), out: &syncbuf.Buffer{}, done: make(chan struct{})}
	l.cmd.Stdout, l.cmd.Stderr = l.out, l.out
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		l.err = l.cmd.Wait()
		close(l.done)
	}()
	t.Cleanup(func() {
		l.cmd.Process.Kill()
		<-l.done
	})
	return l
}

// wait waits for the launch to end, at most d.
func (l *launched) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case <-l.done:
	case <-time.After(d):
		t.Fatalf("goaccel launch did not end within %v:\n%s", d, l.out.String())
	}
}

// line returns the line rank 0 printed that starts with prefix.
func (l *launched) line(t *testing.T, prefix string) string {
	t.Helper()
	for _, line := range strings.Split(l.out.String(), "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	t.Fatalf("no %sline in the output:\n%s", prefix, l.out.String())
	return ""
}

// weights returns the WEIGHTS line rank 0 printed.
func (l *launched) weights(t *testing.T) string { return l.line(t, "WEIGHTS ") }

// waitFile waits for path to exist with content and returns it.
func waitFile(t *testing.T, path string, d time.Duration, l *launched) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
		select {
		case <-l.done:
			t.Fatalf("goaccel launch ended before %s appeared: %v\n%s", filepath.Base(path), l.err, l.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not appear within %v:\n%s", path, d, l.out.String())
	return ""
}

// `goaccel launch` of the training program in testdata/resume (2 workers):
// SIGKILL of a worker mid-step with --max_restarts 1 restarts the group,
// which resumes from the last checkpoint and ends with the uninterrupted
// run's weights, bit for bit; SIGINT stops it at a step boundary
// mid-epoch with its state saved, and --resume continues to the same
// weights; and a collective one rank never joins is reported on the
// terminal, naming the rank and its line, soon after the threshold.
// About 15 s on two loaded cores, most of it building.
func TestGoaccelLaunchRestartsStopsResumesAndReportsStalls(t *testing.T) {
	dir := t.TempDir()
	goaccel := filepath.Join(dir, "goaccel")
	if out, err := exec.Command("go", "build", "-o", goaccel, "../cmd/goaccel").CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/goaccel: %v\n%s", err, out)
	}
	prog := buildProgram(t, "./testdata/resume")
	ref := startLaunch(t, goaccel, "--num_processes", "2", prog, "-dir", filepath.Join(dir, "ref"))
	ref.wait(t, 2*time.Minute)
	want := ref.weights(t)

	t.Run("restart after SIGKILL", func(t *testing.T) {
		marks := t.TempDir()
		l := startLaunch(t, goaccel, "--num_processes", "2", "--max_restarts", "1", prog,
			"-dir", t.TempDir(), "-marks", marks, "-mark_at", "20", "-pause")
		pid, _ := strconv.Atoi(waitFile(t, filepath.Join(marks, "reached"), time.Minute, l))
		killed := time.Now()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		l.wait(t, 2*time.Minute)
		out := l.out.String()
		if l.err != nil {
			t.Fatalf("the restarted launch failed: %v\n%s", l.err, out)
		}
		t.Logf("killed at step 20; the restarted group finished %v later", time.Since(killed).Round(time.Millisecond))
		for _, s := range []string{"worker rank 1 failed (signal: killed)", "restart 1 of 1: every worker was stopped",
			"the group starts again and resumes from ", filepath.Join("checkpoints", "checkpoint_1") + " (saved after 16 optimizer steps)",
			"accelerate: resumed from"} {
			if !strings.Contains(out, s) {
				t.Errorf("the output lacks %q:\n%s", s, out)
			}
		}
		if got := l.weights(t); got != want {
			t.Errorf("after a restart the weights differ from the uninterrupted run's:\n got %.120s…\nwant %.120s…", got, want)
		}
		if ran := l.line(t, "RAN "); ran != "RAN 48" {
			t.Errorf("the restarted group ran %q; want the 48 steps after the checkpoint of step 16", ran)
		}
	})

	t.Run("stop on SIGINT, then --resume", func(t *testing.T) {
		marks, project := t.TempDir(), t.TempDir()
		args := []string{"--num_processes", "2", prog, "-dir", project, "-marks", marks, "-mark_at", "10", "-step_delay_ms", "50"}
		l := startLaunch(t, goaccel, args...)
		waitFile(t, filepath.Join(marks, "reached"), time.Minute, l)
		asked := time.Now()
		if err := l.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		l.wait(t, time.Minute)
		out := l.out.String()
		m := regexp.MustCompile(`saved its state in (\S+) \(after (\d+) optimizer steps\); continue with: goaccel launch --resume`).FindStringSubmatch(out)
		if l.err == nil || m == nil {
			t.Fatalf("after SIGINT: %v; want the stop's message naming the checkpoint:\n%s", l.err, out)
		}
		t.Logf("stopped %v after SIGINT, at step %s", time.Since(asked).Round(time.Millisecond), m[2])
		var st struct {
			Positions []int `json:"loader_positions"`
		}
		b, err := os.ReadFile(filepath.Join(m[1], "goaccel_state.json"))
		if err == nil {
			err = json.Unmarshal(b, &st)
		}
		if err != nil || len(st.Positions) != 1 || st.Positions[0] < 10 || st.Positions[0] >= 32 {
			t.Fatalf("the stop's checkpoint %s: %v, loader positions %v; want one loader stopped mid-epoch, at step 10 or after", m[1], err, st.Positions)
		}
		r := startLaunch(t, goaccel, append([]string{"--resume"}, args...)...)
		r.wait(t, 2*time.Minute)
		if r.err != nil {
			t.Fatalf("goaccel launch --resume: %v\n%s", r.err, r.out.String())
		}
		if !strings.Contains(r.out.String(), "accelerate: resumed from "+m[1]) {
			t.Errorf("the resumed run does not say it resumed from %s:\n%s", m[1], r.out.String())
		}
		if got := r.weights(t); got != want {
			t.Errorf("stopped and resumed, the weights differ from the uninterrupted run's:\n got %.120s…\nwant %.120s…", got, want)
		}
		if ran, want := r.line(t, "RAN "), fmt.Sprintf("RAN %d", 64-st.Positions[0]); ran != want {
			t.Errorf("the resumed run ran %q; want %q, the steps after the stop", ran, want)
		}
	})

	t.Run("a second SIGINT kills", func(t *testing.T) {
		marks := t.TempDir()
		l := startLaunch(t, goaccel, "--num_processes", "2", prog, "-dir", t.TempDir(), "-marks", marks, "-mark_at", "5", "-pause")
		pid, _ := strconv.Atoi(waitFile(t, filepath.Join(marks, "reached"), time.Minute, l))
		l.cmd.Process.Signal(syscall.SIGINT) // rank 1 waits mid-step for ever: it never reaches a boundary
		time.Sleep(time.Second)
		if syscall.Kill(pid, 0) != nil {
			t.Fatalf("the first SIGINT killed the workers:\n%s", l.out.String())
		}
		l.cmd.Process.Signal(syscall.SIGINT)
		l.wait(t, 30*time.Second)
		out := l.out.String()
		for _, s := range []string{"goaccel: stopping: every worker finishes its current step", "interrupted again: stopping the workers at once",
			"goaccel launch: interrupted: every worker was stopped"} {
			if !strings.Contains(out, s) {
				t.Errorf("the output lacks %q:\n%s", s, out)
			}
		}
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("worker %d survived the second SIGINT", pid)
		}
	})

	t.Run("stall report", func(t *testing.T) {
		const threshold = 2 * time.Second
		start := time.Now()
		l := startLaunch(t, goaccel, "--num_processes", "2", "--stall_threshold", threshold.String(), prog, "-hang")
		line := lineOf(t, "testdata/resume/train.go", "the branch only rank 1 takes")
		deadline := time.Now().Add(time.Minute)
		for !strings.Contains(l.out.String(), "rank 1 has not joined it") {
			if time.Now().After(deadline) {
				t.Fatalf("no stall report within a minute:\n%s", l.out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		took := time.Since(start)
		time.Sleep(200 * time.Millisecond) // the rest of the report
		out := l.out.String()
		m := regexp.MustCompile(`#3 has waited ([0-9.]+) s`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("the stall report does not say how long the all-reduce waited:\n%s", out)
		}
		// Reported at the threshold: the launcher looks 4 times a second
		// (the slack is for a loaded machine).
		if waited, _ := strconv.ParseFloat(m[1], 64); waited < threshold.Seconds() || waited > threshold.Seconds()+5 {
			t.Errorf("the report came when the all-reduce had waited %s s; want it soon after the %v threshold", m[1], threshold)
		}
		for _, s := range []string{"all-reduce(sum) #3 has waited", "on rank 0; rank 1 has not joined it",
			"rank 1 is computing, in no collective", "time.Sleep", "main.skipOne  train.go:" + strconv.Itoa(line)} {
			if !strings.Contains(out, s) {
				t.Errorf("the stall report lacks %q:\n%s", s, out)
			}
		}
		t.Logf("stall report %v after the launch (threshold %v)", took.Round(time.Millisecond), threshold)
		l.cmd.Process.Signal(syscall.SIGINT) // not stoppable: the first interrupt stops them at once
		l.wait(t, 30*time.Second)
	})
}

// lineOf returns the line number of the first line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(l, []byte(s)) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return 0
}

// The same through a notebook (tests/resume_e2e.py, against the kernel,
// through each stack's jupyter_client): `%accelerate launch --max_restarts
// 1` survives a worker's SIGKILL and returns the uninterrupted run's
// weights; a first interrupt_request stops the launch at a step boundary
// with its state saved (the cell says where) and `--resume` continues to the
// same weights; a second interrupt kills workers that cannot reach a step
// boundary; the launching cell shows the status table, updated in place; a
// planted rank that skips an all-reduce is reported with its cell and line.
// About 40 s a stack.
func TestLaunchFromCellsRestartsStopsResumesAndReportsStalls(t *testing.T) {
	dataDir := e2eKernel(t)
	forEachStack(t, clientModules, func(t *testing.T, s jupyterStack) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.python, "resume_e2e.py")
		cmd.Env = s.env(append(launchEnv(t, dataDir), "RESUME_E2E_DIR="+t.TempDir()))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		t.Logf("resume_e2e.py output:\n%s", out.String())
		if err != nil {
			t.Fatalf("resume_e2e.py failed (see FAIL lines above): %v", err)
		}
	})
}
