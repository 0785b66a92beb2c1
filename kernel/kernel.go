package kernel

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/history"
	"github.com/goaccel/goaccel/kernel/wire"
	"github.com/google/uuid"
)

// Config configures a Kernel.
type Config struct {
	// Conn is the parsed connection file.
	Conn ConnectionInfo
	// ExecutorCommand is the executor child's argv (the goaccel binary with
	// its hidden executor subcommand).
	ExecutorCommand []string
	// ExecutorEnv is the child's environment (nil: the kernel's).
	ExecutorEnv []string
	// InterruptGrace is how long an interrupted cell may take before the
	// executor is killed and restarted (default 2 s).
	InterruptGrace time.Duration
	// MaxMessageSize is the largest message a client may send on shell,
	// control or stdin (default DefaultMaxMessageSize), like libzmq's
	// ZMQ_MAXMSGSIZE: a connection that announces more is closed before
	// the kernel allocates it. iopub and heartbeat, which carry only
	// subscriptions and pings inbound, accept at most 1 MiB.
	MaxMessageSize int64
	// HandshakeTimeout bounds each new connection's ZeroMQ handshake
	// (default 10 s), so a silent connection cannot hold a port.
	HandshakeTimeout time.Duration
	// MaxOutput caps what one cell sends to the front end (default
	// DefaultMaxOutput): its stream text in total, and each result or
	// display bundle. Beyond it output is truncated with a note, as
	// Jupyter's output limits do; the session is never affected.
	MaxOutput int
	// Log receives diagnostics (default slog.Default()).
	Log *slog.Logger
}

// Defaults for Config's limits.
const (
	DefaultMaxMessageSize   = 256 << 20
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultMaxOutput        = 32 << 20
	// smallMessageSize bounds inbound messages on iopub and heartbeat.
	smallMessageSize = 1 << 20
)

// Kernel serves one Jupyter connection.
type Kernel struct {
	cfg     Config
	log     *slog.Logger
	codec   *wire.Codec
	session string

	shell, control, stdin, iopub *channel
	hb                           zmq4.Socket

	exec *executor.Supervisor
	hist *history.Store

	queue  chan *wire.Message // shell requests that run one at a time
	inputs chan *wire.Message // input_reply messages from the stdin channel

	tailMu sync.Mutex
	tail   *tail // the request the shell worker runs now, if comm messages may join it

	outMu     sync.Mutex
	outParent *wire.Header // parent of stream output; nil drops it (silent cells)
	outLimit  *outputLimit
	zmqLog    *zmqLog

	count    int       // execution_count; only the shell worker touches it
	failedAt time.Time // when the last failed cell's reply was sent; shell worker only

	subscribed atomic.Bool // an iopub subscriber was seen or awaited (awaitSubscriber)

	done     chan struct{}
	doneOnce sync.Once
}

// New returns a Kernel for cfg; Run binds and serves it.
func New(cfg Config) *Kernel {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	id := uuid.NewString()
	k := &Kernel{
		cfg: cfg, log: log, session: id,
		codec:    wire.NewCodec([]byte(cfg.Conn.Key)),
		hist:     history.New(id),
		queue:    make(chan *wire.Message, 4096),
		inputs:   make(chan *wire.Message, 16),
		done:     make(chan struct{}),
		outLimit: &outputLimit{max: cfg.MaxOutput},
		zmqLog:   newZMQLog(log),
	}
	k.exec = executor.NewSupervisor(executor.Config{
		Command:        cfg.ExecutorCommand,
		Env:            cfg.ExecutorEnv,
		Output:         k.streamOutput,
		Display:        k.displayOutput,
		Comm:           k.commOutput,
		InterruptGrace: cfg.InterruptGrace,
		Log:            log,
	})
	return k
}

// Run binds the channels and serves until a shutdown_request, SIGTERM, or
// the end of ctx. SIGINT interrupts the running cell.
func (k *Kernel) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ci := k.cfg.Conn
	if ci.Key == "" {
		// As jupyter_client warns: anyone who can reach the ports can run code.
		k.log.Warn("Message signing is disabled: the connection file has no key, so any local user who can reach the kernel's ports can run code in it. This is insecure and not recommended; let Jupyter write a key into the connection file.")
	}
	requests := k.socketOptions(k.cfg.MaxMessageSize)
	small := k.socketOptions(min(k.cfg.MaxMessageSize, smallMessageSize))
	var err error
	if k.shell, err = bind("shell", zmq4.NewRouter(ctx, requests...), ci.Endpoint(ci.ShellPort), k.codec, k.log); err != nil {
		return err
	}
	defer k.shell.sock.Close()
	if k.control, err = bind("control", zmq4.NewRouter(ctx, requests...), ci.Endpoint(ci.ControlPort), k.codec, k.log); err != nil {
		return err
	}
	defer k.control.sock.Close()
	if k.stdin, err = bind("stdin", zmq4.NewRouter(ctx, requests...), ci.Endpoint(ci.StdinPort), k.codec, k.log); err != nil {
		return err
	}
	defer k.stdin.sock.Close()
	if k.iopub, err = bind("iopub", zmq4.NewPub(ctx, small...), ci.Endpoint(ci.IOPubPort), k.codec, k.log); err != nil {
		return err
	}
	defer k.iopub.sock.Close()
	k.hb = zmq4.NewRep(ctx, small...)
	if err := k.hb.Listen(ci.Endpoint(ci.HBPort)); err != nil {
		return fmt.Errorf("bind heartbeat channel: %w", err)
	}
	defer k.hb.Close()
	defer k.exec.Close()

	k.publish("status", nil, map[string]any{"execution_state": "starting"})
	go func() {
		// Start the interpreter at once so the first cell does not pay for it.
		if err := k.exec.Start(); err != nil {
			k.log.Error("start executor", "err", err)
		}
	}()
	go k.watchParent(ctx)
	go heartbeat(ctx, k.hb, k.log)
	go k.shell.serve(ctx, k.onShell)
	go k.control.serve(ctx, k.onControl)
	go k.stdin.serve(ctx, k.onStdin)
	go k.shellWorker(ctx)

	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-k.done:
			// The PUB socket sends from a queue: let the last status and
			// shutdown_reply leave before the sockets close.
			time.Sleep(50 * time.Millisecond)
			return nil
		case s := <-sig:
			if s == syscall.SIGINT {
				k.log.Info("SIGINT: interrupting the running cell")
				k.exec.Interrupt()
				continue
			}
			k.log.Info("SIGTERM: shutting down")
			return nil
		}
	}
}

// stop ends Run.
func (k *Kernel) stop() { k.doneOnce.Do(func() { close(k.done) }) }

// publish sends a message on iopub; a send failure is logged, not fatal.
func (k *Kernel) publish(msgType string, parent *wire.Header, content any) {
	m, err := wire.NewMessage(msgType, k.session, parent, content)
	if err != nil {
		k.log.Error("build iopub message", "msg_type", msgType, "err", err)
		return
	}
	k.send(m)
}

// send publishes m on iopub under its message type's topic.
func (k *Kernel) send(m *wire.Message) {
	msgType := m.Header.MsgType
	m.Identities = [][]byte{[]byte("kernel." + k.session + "." + msgType)}
	if err := k.iopub.send(m); err != nil {
		k.log.Warn("publish", "err", err)
	}
	if t, ok := k.iopub.sock.(zmq4.Topics); ok && msgType == "status" && k.log.Enabled(context.Background(), slog.LevelDebug) {
		// A status lost to a missing subscriber can hang a front end.
		var pid string
		if m.Parent != nil {
			pid = m.Parent.MsgID
		}
		k.log.Debug("published", "msg_type", msgType, "content", string(m.Content), "parent", pid, "iopub_topics", len(t.Topics()))
	}
}

// reply sends msgType with content to req's sender on ch.
func (k *Kernel) reply(ch *channel, req *wire.Message, msgType string, content any) {
	m, err := wire.NewReply(req, msgType, k.session, content)
	if err != nil {
		k.log.Error("build reply", "msg_type", msgType, "err", err)
		return
	}
	if err := ch.send(m); err != nil {
		k.log.Warn("reply", "err", err)
	}
}

// busy publishes status busy, runs f, then publishes status idle, all with req as parent.
// A request whose outputs a front end waits for holds until iopub has a subscriber
// (awaitSubscriber); an informational one (kernel_info, completion, …) is answered at once.
func (k *Kernel) busy(req *wire.Message, f func()) {
	if !informational[req.Header.MsgType] {
		k.awaitSubscriber()
	}
	k.publish("status", &req.Header, map[string]any{"execution_state": "busy"})
	defer k.publish("status", &req.Header, map[string]any{"execution_state": "idle"})
	f()
}

// streamOutput publishes executor output to the current cell.
func (k *Kernel) streamOutput(stream, text string) {
	k.outMu.Lock()
	parent := k.outParent
	k.outMu.Unlock()
	if parent == nil {
		return
	}
	text, note := k.outLimit.stream(text)
	if text != "" {
		k.publish("stream", parent, map[string]any{"name": stream, "text": text})
	}
	if note != "" {
		k.publish("stream", parent, map[string]any{"name": "stderr", "text": note})
	}
}

// displayOutput publishes a display message from a cell.
func (k *Kernel) displayOutput(msgType string, content map[string]any) {
	k.outMu.Lock()
	parent := k.outParent
	k.outMu.Unlock()
	if parent == nil {
		return
	}
	if content == nil {
		content = map[string]any{}
	}
	if msgType == "display_data" || msgType == "update_display_data" {
		for _, key := range []string{"data", "metadata", "transient"} {
			if _, ok := content[key]; !ok {
				content[key] = map[string]any{}
			}
		}
		if data, ok := content["data"].(map[string]any); ok {
			content["data"] = k.outLimit.bundle(data)
		}
	}
	k.publish(msgType, parent, content)
}

// setOutputParent makes h the parent of executor output and returns the previous one.
func (k *Kernel) setOutputParent(h *wire.Header) (prev *wire.Header) {
	k.outMu.Lock()
	defer k.outMu.Unlock()
	prev, k.outParent = k.outParent, h
	return prev
}
