package executor

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestExecuteStreamsOutputBeforeResult(t *testing.T) {
	s, rec := newFake(t)
	out := s.Execute(context.Background(), ExecRequest{Code: "echo hello"})
	if out.Result.Error != nil {
		t.Fatal(out.Result.Error)
	}
	// The done event carries a sync marker, so all output is in by now.
	if got := rec.stream("stdout"); got != "hello\n" {
		t.Errorf("stdout = %q", got)
	}
	if got := rec.stream("stderr"); got != "err:hello\n" {
		t.Errorf("stderr = %q", got)
	}
}

func TestVariablesSurviveBetweenCells(t *testing.T) {
	s, _ := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "set x=42"})
	out := s.Execute(context.Background(), ExecRequest{Code: "get x", UserExpressions: map[string]string{"e": "x"}})
	if out.Result.Data["text/plain"] != "42" {
		t.Fatalf("get x = %+v", out.Result)
	}
	if e, _ := out.UserExpressions["e"].(map[string]any); e["status"] != "ok" {
		t.Fatalf("user expressions = %v", out.UserExpressions)
	}
}

func TestDisplayKeepsOrderWithOutput(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "display"})
	got := strings.Join(rec.snapshot(), "|")
	if !strings.HasPrefix(got, "stdout:before|display:display_data|stdout:after") {
		t.Fatalf("events = %s", got)
	}
}

func TestOutputIsLiveNotAtTheEnd(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "slow"}) // 6 lines, 200 ms apart
	end := time.Now()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.times) < 3 {
		t.Fatalf("want several batches while the cell ran, got %d: %q", len(rec.times), rec.events)
	}
	// Output held to the end arrives with it; live output, a second or more before it (a
	// loaded machine only stretches the cell's sleeps, which widens the gap).
	if early := end.Sub(rec.times[0]); early < 500*time.Millisecond {
		t.Fatalf("first output only %v before the cell ended; want it while the cell runs", early)
	}
}

// interruptWhenPrinted interrupts the cell once it printed started: the child
// then runs it, so the interrupt can neither come before the supervisor
// knows of the cell (it would do nothing) nor before the child does (the
// child would drop it and be killed after the grace).
func interruptWhenPrinted(t *testing.T, s *Supervisor, rec *recorder, started string) {
	go func() {
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(rec.stream("stdout"), started) {
			if time.Now().After(deadline) {
				t.Errorf("the cell did not print %q within 20 s", started)
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		s.Interrupt()
	}()
}

func TestInterruptStopsInterpretedLoopAndKeepsState(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "set x=1"})
	interruptWhenPrinted(t, s, rec, "looping")
	start := time.Now()
	out := s.Execute(context.Background(), ExecRequest{Code: "loop"})
	// The loop never ends by itself: the bound only catches an interrupt that restarted the
	// child (seconds) instead of stopping the loop, with room for a loaded machine.
	if !out.Result.Interrupted || out.Restarted || time.Since(start) > 10*time.Second {
		t.Fatalf("outcome = %+v after %v", out, time.Since(start))
	}
	if got := s.Execute(context.Background(), ExecRequest{Code: "get x"}); got.Result.Data["text/plain"] != "1" {
		t.Fatalf("x lost after interrupt: %+v", got.Result)
	}
}

func TestInterruptKillsChildBlockedInCompiledCode(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "set x=1"})
	interruptWhenPrinted(t, s, rec, "blocking")
	out := s.Execute(context.Background(), ExecRequest{Code: "block"})
	if !out.Restarted || out.Result.Error == nil || !strings.Contains(out.Result.Error.Evalue, RestartedNote) ||
		!strings.Contains(out.Result.Error.Evalue, "did not stop") {
		t.Fatalf("outcome = %+v %+v", out, out.Result.Error)
	}
	if got := s.Execute(context.Background(), ExecRequest{Code: "get x"}); got.Result.Error == nil {
		t.Fatal("variables should be gone after a restart")
	}
}

func TestCrashesRestartTheExecutorWithAClearError(t *testing.T) {
	tests := []struct{ code, want string }{
		{"panicgo", "panic: boom in goroutine"},
		{"exit", "exited with status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			s, rec := newFake(t)
			out := s.Execute(context.Background(), ExecRequest{Code: tt.code})
			if out.Result.Error == nil || !out.Restarted || !strings.Contains(out.Result.Error.Evalue, tt.want) ||
				!strings.Contains(out.Result.Error.Evalue, RestartedNote) {
				t.Fatalf("outcome = %+v %+v", out, out.Result.Error)
			}
			rec.reset()
			if got := s.Execute(context.Background(), ExecRequest{Code: "echo again"}); got.Result.Error != nil || rec.stream("stdout") != "again\n" {
				t.Fatalf("executor not usable after restart: %+v %q", got.Result, rec.stream("stdout"))
			}
		})
	}
}

func TestStdinRelaysInputRequests(t *testing.T) {
	s, _ := newFake(t)
	var prompts int
	out := s.Execute(context.Background(), ExecRequest{Code: "read", AllowStdin: true,
		Input: func(ctx context.Context, prompt string, pw bool) (string, error) { prompts++; return "gopher", nil }})
	if out.Result.Data["text/plain"] != "got gopher" || prompts != 1 {
		t.Fatalf("outcome = %+v, prompts %d", out.Result, prompts)
	}
	out = s.Execute(context.Background(), ExecRequest{Code: "read", AllowStdin: false})
	if out.Result.Error == nil || out.Result.Error.Ename != "NoStdin" {
		t.Fatalf("allow_stdin=false: %+v", out.Result)
	}
}

func TestInterruptWhileWaitingForInput(t *testing.T) {
	s, _ := newFake(t)
	asked := make(chan struct{}) // the cell waits for input: interrupt it now
	go func() { <-asked; s.Interrupt() }()
	out := s.Execute(context.Background(), ExecRequest{Code: "read", AllowStdin: true,
		Input: func(ctx context.Context, prompt string, pw bool) (string, error) {
			close(asked)
			<-ctx.Done()
			return "", ctx.Err()
		}})
	if out.Result.Error == nil || out.Restarted {
		t.Fatalf("outcome = %+v", out)
	}
}

func TestShellQueriesReachTheSession(t *testing.T) {
	s, _ := newFake(t)
	ctx := context.Background()
	if st, ind, err := s.IsComplete(ctx, "func f() {"); err != nil || st != "incomplete" || ind != "\t" {
		t.Errorf("IsComplete = %q %q %v", st, ind, err)
	}
	if m, a, b, err := s.Complete(ctx, "fmt.Pr", 6); err != nil || len(m) != 2 || a != 4 || b != 6 {
		t.Errorf("Complete = %v %d %d %v", m, a, b, err)
	}
	if found, data, err := s.Inspect(ctx, "fmt", 1, 0); err != nil || !found || data["text/plain"] != "doc of fmt" {
		t.Errorf("Inspect = %v %v %v", found, data, err)
	}
}
