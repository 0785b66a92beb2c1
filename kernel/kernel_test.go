package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/wire"
)

// TestMain doubles as the executor child (GOACCEL_KERNEL_TEST_CHILD=1), so
// these tests run the real kernel and supervisor without kernel/internal/session.
func TestMain(m *testing.M) {
	if os.Getenv("GOACCEL_KERNEL_TEST_CHILD") == "1" {
		reqs, events, err := executor.InheritedPipes()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		c := executor.NewChild(reqs, events, os.Stdout, os.Stderr)
		testComms = comm.NewManager(c)
		if err := c.Serve(context.Background(), echoSession{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// echoSession prints each cell and returns it as the result; "fail" fails
// (after n seconds with "fail n") and "sleep [n]" takes n seconds (at least one).
type echoSession struct{}

func (echoSession) SetStdin(io.Reader) {}

func (echoSession) Execute(ctx context.Context, code string) executor.Result {
	cmd, arg, _ := strings.Cut(code, " ")
	n, _ := strconv.Atoi(arg)
	switch cmd {
	case "fail":
		time.Sleep(time.Duration(n) * time.Second)
		return executor.Result{Error: &executor.Error{Ename: "Fail", Evalue: "failed", Traceback: []string{"line 1"}}}
	case "sleep":
		time.Sleep(time.Duration(max(1, n)) * time.Second)
	case "stuck": // says it started, then ignores its context for n seconds (at least one)
		fmt.Println("started")
		time.Sleep(time.Duration(max(1, n)) * time.Second)
	case "spam": // n bytes of output in lines of 64
		line := strings.Repeat("x", 63) + "\n"
		for range n / 64 {
			fmt.Print(line)
		}
		return executor.Result{}
	case "bigresult": // a result whose text/plain and image/png are n bytes each
		return executor.Result{Data: map[string]any{"text/plain": strings.Repeat("r", n), "image/png": strings.Repeat("A", n)}}
	case "open": // a comm (see commEcho); its id is the result
		return executor.Result{Data: map[string]any{"text/plain": openEchoComm()}}
	case "bigerror":
		return executor.Result{Error: &executor.Error{Ename: "Big", Evalue: strings.Repeat("e", n), Traceback: []string{strings.Repeat("t", n), "last"}}}
	}
	fmt.Println("out:" + code)
	return executor.Result{Data: map[string]any{"text/plain": code}}
}

func (echoSession) UserExpressions(context.Context, map[string]string) map[string]any { return nil }
func (echoSession) IsComplete(code string) (string, string)                           { return "complete", "" }
func (echoSession) Complete(code string, c int) ([]string, int, int)                  { return []string{"x"}, c, c }
func (echoSession) Inspect(string, int, int) (bool, map[string]any)                   { return false, nil }

// freePorts returns n distinct ports that were free a moment ago. Every
// listener stays open until all n are chosen: bind(0) right after a close
// hands out the same port again, and five one-at-a-time picks gave one
// kernel the same port twice about once in 550 starts.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// client is a minimal Jupyter client over zmq4.
type client struct {
	t            *testing.T
	ci           ConnectionInfo
	codec        *wire.Codec
	shell, ctrl  zmq4.Socket
	iopub        zmq4.Socket
	shellIn, pub chan *wire.Message
	ctrlIn       chan *wire.Message
}

func startKernel(t *testing.T) *client {
	t.Helper()
	c := startKernelNoIOPub(t)
	c.subscribe()
	c.awaitSubscribed()
	return c
}

// startKernelNoIOPub starts a kernel and connects shell and control only;
// subscribe connects iopub.
func startKernelNoIOPub(t *testing.T) *client {
	t.Helper()
	return startKernelWith(t, nil)
}

// startKernelWith is startKernelNoIOPub with configure applied to the
// kernel's Config first (when not nil).
func startKernelWith(t *testing.T, configure func(*Config)) *client {
	t.Helper()
	// Another process may take a port between freePorts and the kernel's bind:
	// the kernel then fails at once, and a fresh set of ports is tried.
	for attempt := 1; ; attempt++ {
		p := freePorts(t, 5)
		ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", Key: "secret", SignatureScheme: "hmac-sha256",
			ShellPort: p[0], ControlPort: p[1], IOPubPort: p[2], StdinPort: p[3], HBPort: p[4]}
		ctx, cancel := context.WithCancel(context.Background())
		cfg := Config{Conn: ci, ExecutorCommand: []string{os.Args[0]},
			ExecutorEnv:    append(os.Environ(), "GOACCEL_KERNEL_TEST_CHILD=1"),
			InterruptGrace: 300 * time.Millisecond}
		if configure != nil {
			configure(&cfg)
			ci = cfg.Conn
		}
		k := New(cfg)
		done := make(chan error, 1)
		go func() { done <- k.Run(ctx) }()
		select {
		case err := <-done: // a bind failed
			cancel()
			if attempt == 3 {
				t.Fatalf("the kernel did not start: %v", err)
			}
			t.Logf("kernel start %d: %v; trying other ports", attempt, err)
			continue
		case <-time.After(50 * time.Millisecond): // let the kernel bind
		}
		t.Cleanup(func() { cancel(); <-done })
		return connectClient(t, ctx, ci, "test-client")
	}
}

// connectClient connects a client's shell and control to a running kernel;
// subscribe connects its iopub.
func connectClient(t *testing.T, ctx context.Context, ci ConnectionInfo, id string) *client {
	t.Helper()
	c := &client{t: t, ci: ci, codec: wire.NewCodec([]byte(ci.Key)), shellIn: make(chan *wire.Message, 100), ctrlIn: make(chan *wire.Message, 10), pub: make(chan *wire.Message, 1000)}
	c.shell = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id)))
	c.ctrl = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id)))
	c.iopub = zmq4.NewSub(ctx)
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, ci.ShellPort}, {c.ctrl, ci.ControlPort}} {
		if err := d.s.Dial(ci.Endpoint(d.port)); err != nil {
			t.Fatal(err)
		}
	}
	go c.pump(c.shell, c.shellIn)
	go c.pump(c.ctrl, c.ctrlIn)
	return c
}

// subscribe connects the iopub socket and subscribes to everything.
func (c *client) subscribe() {
	c.t.Helper()
	if err := c.iopub.Dial(c.ci.Endpoint(c.ci.IOPubPort)); err != nil {
		c.t.Fatal(err)
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		c.t.Fatal(err)
	}
	go c.pump(c.iopub, c.pub)
}

// awaitSubscribed waits, as jupyter_client's wait_for_ready does, until the
// subscription has reached the kernel: it sends kernel_info_request until
// iopub carries a message for one of them. Only a request that runs code
// waits for a subscriber, so a kernel_info sent too early has its status
// published to nobody; a fixed sleep would lose it on a loaded machine.
func (c *client) awaitSubscribed() {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		id := c.send(c.shell, c.codec, "kernel_info_request", map[string]any{})
		c.reply(id, 10*time.Second)
		wait := time.After(300 * time.Millisecond)
		for {
			select {
			case m := <-c.pub:
				if m.Parent != nil && m.Parent.MsgID == id {
					if !strings.Contains(string(m.Content), `"idle"`) {
						c.iopubMsgs(id, 5*time.Second) // drain through its idle
					}
					return
				}
				continue
			case <-wait:
			}
			break
		}
	}
	c.t.Fatal("iopub carried nothing for 20 s of kernel_info requests: the subscription never reached the kernel")
}

func (c *client) pump(s zmq4.Socket, ch chan *wire.Message) {
	for {
		raw, err := s.Recv()
		if err != nil {
			return
		}
		m, err := c.codec.Decode(raw.Frames)
		if err != nil {
			c.t.Errorf("kernel sent an undecodable message: %v", err)
			continue
		}
		ch <- m
	}
}

func (c *client) send(s zmq4.Socket, codec *wire.Codec, msgType string, content any) string {
	c.t.Helper()
	m, err := wire.NewMessage(msgType, "client-session", nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	frames, err := codec.Encode(m)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
	return m.Header.MsgID
}

func (c *client) reply(id string, timeout time.Duration) *wire.Message {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.shellIn:
			if m.Parent != nil && m.Parent.MsgID == id {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no reply to %s within %v", id, timeout)
		}
	}
}

// iopubFor returns the msg_types published for parent id, busy through idle.
func (c *client) iopubFor(id string) []string {
	c.t.Helper()
	var types []string
	for _, m := range c.iopubMsgs(id, 5*time.Second) {
		var st struct {
			ExecutionState string `json:"execution_state"`
		}
		_ = json.Unmarshal(m.Content, &st)
		types = append(types, m.Header.MsgType+strings.TrimSuffix(":"+st.ExecutionState, ":"))
	}
	return types
}

// iopubMsgs returns the messages published for parent id, busy through idle.
func (c *client) iopubMsgs(id string, timeout time.Duration) []*wire.Message {
	c.t.Helper()
	var msgs []*wire.Message
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.pub:
			if m.Parent == nil || m.Parent.MsgID != id {
				continue
			}
			msgs = append(msgs, m)
			var st struct {
				ExecutionState string `json:"execution_state"`
			}
			_ = json.Unmarshal(m.Content, &st)
			if st.ExecutionState == "idle" {
				return msgs
			}
		case <-deadline:
			c.t.Fatalf("no idle for %s within %v; got %d messages", id, timeout, len(msgs))
		}
	}
}

// waitStream waits until the cell id printed want on iopub.
func (c *client) waitStream(id, want string, timeout time.Duration) {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m := <-c.pub:
			var s struct{ Text string }
			if m.Parent != nil && m.Parent.MsgID == id && m.Header.MsgType == "stream" &&
				json.Unmarshal(m.Content, &s) == nil && strings.Contains(s.Text, want) {
				return
			}
		case <-deadline:
			c.t.Fatalf("cell %s did not print %q within %v", id, want, timeout)
		}
	}
}

func TestExecutePublishesSpecSequenceAndReplies(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "42", "silent": false})
	rep := c.reply(id, 10*time.Second)
	var content map[string]any
	if err := rep.Unmarshal(&content); err != nil || content["status"] != "ok" || content["execution_count"] != 1.0 {
		t.Fatalf("execute_reply = %v, %v", content, err)
	}
	got := strings.Join(c.iopubFor(id), " ")
	want := "status:busy execute_input stream execute_result status:idle"
	if got != want {
		t.Fatalf("iopub = %s\nwant    %s", got, want)
	}
}

// jupyter console sends its first cell as soon as kernel_info_reply arrives
// and waits for that cell's idle status with no timeout; a zmq4 PUB drops
// what it sends before the subscription is read. So the first reply must
// wait until iopub has a subscriber, and its own statuses must be seen.
func TestKernelInfoAnswersAtOnceAndTheFirstCellWaitsForAnIOPubSubscriber(t *testing.T) {
	c := startKernelNoIOPub(t)
	// kernel_info is answered with no subscriber: jupyter_client 8 reads iopub
	// only after this reply (a held reply cost every restart 3 s).
	c.reply(c.send(c.shell, c.codec, "kernel_info_request", map[string]any{}), 5*time.Second)
	id := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "42"})
	time.Sleep(300 * time.Millisecond) // the subscriber is late
	select {
	case m := <-c.shellIn:
		t.Fatalf("%s sent before iopub had a subscriber: the cell's outputs and idle status were lost", m.Header.MsgType)
	default:
	}
	c.subscribe()
	c.reply(id, 10*time.Second)
	if got := c.iopubFor(id); len(got) < 2 || got[0] != "status:busy" || got[len(got)-1] != "status:idle" {
		t.Fatalf("first cell's iopub = %v, want status:busy … status:idle", got)
	}
}

// TestKernelInfoAnswersWhileACellRuns sends kernel_info_request behind a cell that runs for
// three seconds: its reply must come first (an order, not a time bound, so a loaded machine
// cannot fail it).
func TestKernelInfoAnswersWhileACellRuns(t *testing.T) {
	c := startKernel(t)
	cell := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "sleep 3"})
	info := c.send(c.shell, c.codec, "kernel_info_request", map[string]any{})
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m := <-c.shellIn:
			if m.Parent == nil {
				continue
			}
			switch m.Parent.MsgID {
			case info:
				return
			case cell:
				t.Fatal("the cell's execute_reply came before kernel_info_reply: kernel_info waited for the cell")
			}
		case <-deadline:
			t.Fatal("no kernel_info_reply within 20 s")
		}
	}
}

func TestForgedMessagesAreDroppedAndKernelKeepsServing(t *testing.T) {
	c := startKernel(t)
	forged := c.send(c.shell, wire.NewCodec([]byte("wrong key")), "kernel_info_request", map[string]any{})
	if err := c.shell.SendMulti(zmq4.NewMsgFrom([]byte("garbage"))); err != nil {
		t.Fatal(err)
	}
	id := c.send(c.shell, c.codec, "kernel_info_request", map[string]any{})
	rep := c.reply(id, 5*time.Second)
	if rep.Parent.MsgID == forged {
		t.Fatal("forged message was answered")
	}
	select {
	case m := <-c.shellIn:
		t.Fatalf("unexpected extra reply %s to %s", m.Header.MsgType, m.Parent.MsgID)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestStopOnErrorAbortsQueuedExecutes(t *testing.T) {
	c := startKernel(t)
	// The failing cell runs for a second, so the next request is surely queued when it fails.
	bad := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "fail 1"})
	queued := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "1"})
	other := c.send(c.shell, c.codec, "is_complete_request", map[string]any{"code": "1"})
	status := func(id string) string {
		var content map[string]any
		if err := c.reply(id, 10*time.Second).Unmarshal(&content); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(content["status"])
	}
	if s := status(bad); s != "error" {
		t.Fatalf("failing cell status = %s", s)
	}
	if s := status(queued); s != "aborted" {
		t.Fatalf("queued cell status = %s, want aborted", s)
	}
	if s := status(other); s != "complete" {
		t.Fatalf("queued is_complete status = %s; other requests must still be answered", s)
	}
}

func TestSentBeforeComparesClientDates(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 500000000, time.UTC)
	tests := []struct {
		date string
		want bool
	}{
		{"2026-01-01T12:00:00.400000Z", true},
		{"2026-01-01T12:00:00.500000Z", true},
		{"2026-01-01T12:00:00.600000Z", false},
		{"2026-01-01T13:00:00.400000+01:00", true},
		{"not a date", true},
	}
	for _, tt := range tests {
		if got := sentBefore(tt.date, at); got != tt.want {
			t.Errorf("sentBefore(%q) = %v, want %v", tt.date, got, tt.want)
		}
	}
}

func TestExecuteSentAfterTheErrorReplyRuns(t *testing.T) {
	c := startKernel(t)
	bad := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "fail"})
	c.reply(bad, 10*time.Second)
	next := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "1"})
	var content map[string]any
	if err := c.reply(next, 10*time.Second).Unmarshal(&content); err != nil || content["status"] != "ok" {
		t.Fatalf("cell sent after the error reply: %v %v; want it to run", content, err)
	}
}

func TestInterruptOnControlKillsAStuckCellAndSaysSo(t *testing.T) {
	c := startKernel(t)
	// The cell ignores its context for 5 s. Its output on iopub means it runs in the executor:
	// an interrupt sent earlier could come before the cell and do nothing.
	id := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "stuck 5"})
	c.waitStream(id, "started", 20*time.Second)
	intr := c.send(c.ctrl, c.codec, "interrupt_request", map[string]any{})
	select {
	case m := <-c.ctrlIn:
		if m.Header.MsgType != "interrupt_reply" || m.Parent.MsgID != intr {
			t.Fatalf("control reply = %s", m.Header.MsgType)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no interrupt_reply on control while a cell runs")
	}
	var content map[string]any
	if err := c.reply(id, 10*time.Second).Unmarshal(&content); err != nil {
		t.Fatal(err)
	}
	if content["status"] != "error" || !strings.Contains(fmt.Sprint(content["evalue"]), executor.RestartedNote) {
		t.Fatalf("execute_reply = %v; want an error saying the executor restarted", content)
	}
	next := c.send(c.shell, c.codec, "execute_request", map[string]any{"code": "2"})
	if err := c.reply(next, 10*time.Second).Unmarshal(&content); err != nil || content["status"] != "ok" {
		t.Fatalf("after restart: %v %v", content, err)
	}
}
