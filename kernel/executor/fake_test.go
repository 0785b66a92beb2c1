package executor

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
)

// TestMain doubles as the executor child: with GOACCEL_FAKE_CHILD=1 the test
// binary serves fakeSession over fd 3/4, as "goaccel __executor" serves a session.
func TestMain(m *testing.M) {
	if os.Getenv("GOACCEL_FAKE_CHILD") == "1" {
		reqs, events, err := InheritedPipes()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		c := NewChild(reqs, events, os.Stdout, os.Stderr)
		f := &fakeSession{child: c}
		if err := c.Serve(context.Background(), f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeSession interprets a tiny command language that exercises every path
// of the supervisor: output, state, interrupts, crashes and stdin.
type fakeSession struct {
	child *Child
	stdin io.Reader
	vars  map[string]string
	decls []string

	comms  *comm.Manager
	parent string
	runCtx context.Context // the context of RunDeferred, for the jobs it runs
}

// save writes the state file (EnvState): "decl NAME" and "var NAME" lines.
func (f *fakeSession) save() {
	var b strings.Builder
	for _, d := range f.decls {
		fmt.Fprintf(&b, "decl %s\n", d)
	}
	for k := range f.vars {
		fmt.Fprintf(&b, "var %s\n", k)
	}
	os.WriteFile(os.Getenv(EnvState), []byte(b.String()), 0o600)
}

// Restore brings back the declarations of the state file and names its
// variables as lost (Restorer); "" when the file holds none.
func (f *fakeSession) Restore(context.Context) string {
	b, _ := os.ReadFile(os.Getenv(EnvState))
	if len(b) == 0 {
		return ""
	}
	var lost []string
	for _, l := range strings.Split(string(b), "\n") {
		if name, ok := strings.CutPrefix(l, "decl "); ok {
			f.decls = append(f.decls, name)
		} else if name, ok := strings.CutPrefix(l, "var "); ok {
			lost = append(lost, name)
		}
	}
	return "declarations restored: " + strings.Join(f.decls, ",") + "; variables lost: " + strings.Join(lost, ",")
}

func (f *fakeSession) SetStdin(r io.Reader) { f.stdin = r }

func (f *fakeSession) Execute(ctx context.Context, code string) Result {
	if f.vars == nil {
		f.vars = map[string]string{}
	}
	cmd, arg, _ := strings.Cut(code, " ")
	switch cmd {
	case "echo":
		fmt.Println(arg)
		fmt.Fprintln(os.Stderr, "err:"+arg)
	case "set":
		k, v, _ := strings.Cut(arg, "=")
		f.vars[k] = v
		f.save()
	case "declare":
		f.decls = append(f.decls, arg)
		f.save()
	case "has":
		return Result{Data: map[string]any{"text/plain": strconv.FormatBool(slices.Contains(f.decls, arg))}}
	case "switch": // a cell that needs another executor binary
		if os.Getenv("GOACCEL_FAKE_SWITCHED") == "" {
			return Result{Switch: []string{"/usr/bin/env", "GOACCEL_FAKE_SWITCHED=1", os.Args[0]}}
		}
		fmt.Println("ran in the switched child")
	case "get":
		v, ok := f.vars[arg]
		if !ok {
			return Result{Error: &Error{Ename: "Undefined", Evalue: arg, Traceback: []string{arg}}}
		}
		return Result{Data: map[string]any{"text/plain": v}}
	case "loop": // an interpreted loop: says it started, then stops on ctx
		fmt.Println("looping")
		<-ctx.Done()
		return Result{Interrupted: true, Error: &Error{Ename: "Interrupted", Evalue: "interrupted", Traceback: []string{"interrupted"}}}
	case "block": // compiled code ignoring ctx, after saying it started
		fmt.Println("blocking")
		time.Sleep(time.Hour)
	case "panicgo":
		go func() { panic("boom in goroutine") }()
		time.Sleep(time.Second)
	case "exit":
		os.Exit(3)
	case "read":
		if f.stdin == nil {
			return Result{Error: &Error{Ename: "NoStdin", Evalue: "stdin not available", Traceback: []string{"x"}}}
		}
		line, err := bufio.NewReader(f.stdin).ReadString('\n')
		if err != nil {
			return Result{Error: &Error{Ename: "ReadError", Evalue: err.Error(), Traceback: []string{"x"}}}
		}
		return Result{Data: map[string]any{"text/plain": "got " + strings.TrimSpace(line)}}
	case "display":
		fmt.Print("before")
		f.child.Send("display_data", map[string]any{"data": map[string]any{"text/html": "<b>x</b>"}})
		fmt.Print("after")
	case "print": // verbatim, no newline
		fmt.Print(arg)
	case "len":
		return Result{Data: map[string]any{"text/plain": strconv.Itoa(len(f.vars[arg]))}}
	case "bigresult": // a result of N '<' characters
		n, _ := strconv.Atoi(arg)
		return Result{Data: map[string]any{"text/plain": strings.Repeat("<", n)}}
	case "fds": // which of fd 3 and 4 a process started from the cell inherits
		out, err := exec.Command("/bin/sh", "-c", `for fd in 3 4; do if [ -e /proc/self/fd/$fd ]; then echo "fd $fd: $(readlink /proc/self/fd/$fd)"; fi; done`).CombinedOutput()
		if err != nil {
			return Result{Error: &Error{Ename: "ShellError", Evalue: err.Error(), Traceback: []string{string(out)}}}
		}
		return Result{Data: map[string]any{"text/plain": string(out)}}
	case "open": // a comm whose messages say what to do: echo, defer, loop, block, panic
		return Result{Data: map[string]any{"text/plain": f.openComm()}}
	case "slow":
		for i := range 6 {
			fmt.Printf("tick %d\n", i)
			time.Sleep(200 * time.Millisecond)
		}
	}
	return Result{}
}

// openComm opens a comm to the target "test" and returns its id. Its
// handler answers {"do": "echo", "text": T} with {"echo": T} at once and
// defers the other actions to RunDeferred.
func (f *fakeSession) openComm() string {
	if f.comms == nil {
		f.comms = comm.NewManager(f.child)
	}
	return f.comms.Open("test", map[string]any{"state": "new"}, nil, nil, commFunc(func(m comm.Message) {
		text, _ := m.Data["text"].(string)
		switch m.Data["do"] {
		case "echo":
			f.comms.Lookup(m.CommID).Reply(m, map[string]any{"echo": text}, nil)
		case "defer":
			f.comms.Defer(m, comm.Job{Run: func() { fmt.Println("deferred " + text + " under " + f.parent) }})
		case "loop":
			f.comms.Defer(m, comm.Job{Run: func() { fmt.Println("deferred looping"); <-f.runCtx.Done() }})
		case "block":
			f.comms.Defer(m, comm.Job{Run: func() { fmt.Println("deferred blocking"); time.Sleep(time.Hour) }})
		case "panic":
			f.comms.Defer(m, comm.Job{Run: func() { panic("callback boom") }})
		}
	})).ID()
}

// commFunc is a comm.Handler of comm_msg messages.
type commFunc func(comm.Message)

func (h commFunc) HandleMsg(m comm.Message) { h(m) }
func (commFunc) HandleClose(comm.Message)   {}

func (f *fakeSession) DeliverComm(m comm.Message) (int, error) {
	if f.comms == nil {
		f.comms = comm.NewManager(f.child)
	}
	return f.comms.Deliver(m)
}

func (f *fakeSession) CommInfo(target string) map[string]string {
	if f.comms == nil {
		return map[string]string{}
	}
	return f.comms.Info(target)
}

func (f *fakeSession) RunDeferred(ctx context.Context, msgID string) (res Result) {
	f.runCtx = ctx
	defer func() {
		if r := recover(); r != nil {
			res = Result{Error: &Error{Ename: "Panic", Evalue: fmt.Sprint(r), Traceback: []string{fmt.Sprint(r)}}}
		}
	}()
	for _, job := range f.comms.Take(msgID) {
		job.Run()
		if ctx.Err() != nil {
			return Result{Interrupted: true, Error: &Error{Ename: "Interrupted", Evalue: "interrupted", Traceback: []string{"interrupted"}}}
		}
	}
	return Result{}
}

func (f *fakeSession) SetParent(id string) { f.parent = id }

func (f *fakeSession) UserExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range exprs {
		out[k] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": f.vars[v]}}
	}
	return out
}

func (f *fakeSession) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "{") {
		return "incomplete", "\t"
	}
	return "complete", ""
}

func (f *fakeSession) Complete(code string, cursor int) ([]string, int, int) {
	return []string{"Println", "Printf"}, cursor - 2, cursor
}

func (f *fakeSession) Inspect(code string, cursor, detail int) (bool, map[string]any) {
	return true, map[string]any{"text/plain": "doc of " + code}
}

// newFake starts a Supervisor over the fake child; it records output and displays.
func newFake(t *testing.T) (*Supervisor, *recorder) {
	t.Helper()
	rec := &recorder{}
	s := NewSupervisor(Config{
		Command:        []string{os.Args[0]},
		Env:            append(os.Environ(), "GOACCEL_FAKE_CHILD=1"),
		Output:         rec.output,
		Display:        rec.display,
		Comm:           rec.comm,
		InterruptGrace: 1500 * time.Millisecond,
	})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, rec
}
