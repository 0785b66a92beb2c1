package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/goaccel/goaccel/internal/syncbuf"
	"github.com/goaccel/goaccel/kernel/wire"
)

// port is one of the kernel's five ports and the ZeroMQ socket type a
// client connects to it with.
type port struct {
	name     string
	number   func(ConnectionInfo) int
	peerType string
}

var ports = []port{
	{"shell", func(ci ConnectionInfo) int { return ci.ShellPort }, "DEALER"},
	{"control", func(ci ConnectionInfo) int { return ci.ControlPort }, "DEALER"},
	{"stdin", func(ci ConnectionInfo) int { return ci.StdinPort }, "DEALER"},
	{"iopub", func(ci ConnectionInfo) int { return ci.IOPubPort }, "SUB"},
	{"hb", func(ci ConnectionInfo) int { return ci.HBPort }, "REQ"},
}

// Anyone who can reach a port, without the key, announces a frame of 2^40
// or 2^50 bytes, in the ZeroMQ handshake or in a message after it: the
// kernel drops that connection without allocating the frame and goes on
// serving its client on every channel.
func TestUnauthenticatedHugeFramesOnEveryPortDoNotKillTheKernel(t *testing.T) {
	c := startKernel(t)
	for _, p := range ports {
		for _, when := range []string{"handshake", "message"} {
			for _, size := range []uint64{1 << 40, 1 << 50} {
				conn := rawZMTP(t, c.ci.Endpoint(p.number(c.ci)), p.peerType, when == "message")
				writeLongFrameHeader(t, conn, when == "handshake", size)
				if err := waitPeerClosed(conn, 10*time.Second); err != nil {
					t.Errorf("%s, frame of %d bytes in the %s: the kernel kept the connection: %v", p.name, size, when, err)
				}
				conn.Close()
			}
		}
	}
	c.assertServing()
}

// A connection that never completes its ZeroMQ handshake, on every port at
// once, neither blocks a new client nor stays open past the handshake timeout.
func TestSilentConnectionsDoNotLockClientsOut(t *testing.T) {
	c := startKernelWith(t, func(cfg *Config) { cfg.HandshakeTimeout = 500 * time.Millisecond })
	var silent []net.Conn
	for _, p := range ports {
		conn, err := net.Dial("tcp", strings.TrimPrefix(c.ci.Endpoint(p.number(c.ci)), "tcp://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		silent = append(silent, conn)
	}
	time.Sleep(100 * time.Millisecond) // the silent connections are accepted first
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- newClientIsServed(ctx, c.ci) }()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("silent connections locked a new client out for 20 s (jupyter_client: \"Kernel died before replying to kernel_info\")")
	}
	for i, conn := range silent {
		if err := waitPeerClosed(conn, 10*time.Second); err != nil {
			t.Errorf("silent connection to %s: %v", ports[i].name, err)
		}
	}
}

// A message over Config.MaxMessageSize closes its connection; the kernel
// stays up and a client that reconnects is served.
func TestMessageOverTheLimitIsRefusedAndTheKernelStaysUp(t *testing.T) {
	c := startKernelWith(t, func(cfg *Config) { cfg.MaxMessageSize = 1 << 20 })
	c.subscribe()
	c.awaitSubscribed()
	conn := rawZMTP(t, c.ci.Endpoint(c.ci.ShellPort), "DEALER", true)
	defer conn.Close()
	writeLongFrameHeader(t, conn, false, 2<<20)
	// The kernel may close the connection as soon as it has read the header: the rest of
	// the message then meets a reset (EPIPE or ECONNRESET), which is the refusal itself.
	if _, err := conn.Write(bytes.Repeat([]byte("x"), 64<<10)); err != nil &&
		!errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatal(err)
	}
	if err := waitPeerClosed(conn, 10*time.Second); err != nil {
		t.Fatalf("a 2 MiB message over a 1 MiB limit: %v", err)
	}
	c.assertServing()
}

// An empty key means unsigned messages: allowed by the protocol, but the
// kernel says at start-up that it is insecure, as jupyter_client does.
func TestEmptyKeyIsWarnedAtStartUp(t *testing.T) {
	for _, key := range []string{"", "secret"} {
		logs := &syncbuf.Buffer{}
		c := startKernelWith(t, func(cfg *Config) {
			cfg.Conn.Key = key
			cfg.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
		})
		c.subscribe()
		c.awaitSubscribed()
		c.assertServing()
		warned := strings.Contains(logs.String(), "Message signing is disabled")
		if warned != (key == "") {
			t.Errorf("key %q: warned = %v; log:\n%s", key, warned, logs.String())
		}
	}
}

// assertServing checks that the kernel answers kernel_info on shell and
// control, publishes on iopub and echoes heartbeats.
func (c *client) assertServing() {
	c.t.Helper()
	id := c.send(c.shell, c.codec, "kernel_info_request", map[string]any{})
	c.reply(id, 10*time.Second)
	c.iopubFor(id)
	ctl := c.send(c.ctrl, c.codec, "kernel_info_request", map[string]any{})
	select {
	case m := <-c.ctrlIn:
		if m.Parent == nil || m.Parent.MsgID != ctl {
			c.t.Fatalf("control answered %s", m.Header.MsgType)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("no kernel_info_reply on control")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := heartbeatEchoes(ctx, c.ci); err != nil {
		c.t.Fatal(err)
	}
}

// newClientIsServed connects fresh shell, iopub and heartbeat sockets and
// checks that kernel_info is answered and its statuses published.
func newClientIsServed(ctx context.Context, ci ConnectionInfo) error {
	codec := wire.NewCodec([]byte(ci.Key))
	shell := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("late-client")))
	defer shell.Close()
	iopub := zmq4.NewSub(ctx)
	defer iopub.Close()
	if err := iopub.Dial(ci.Endpoint(ci.IOPubPort)); err != nil {
		return fmt.Errorf("iopub: %w", err)
	}
	if err := iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		return err
	}
	if err := shell.Dial(ci.Endpoint(ci.ShellPort)); err != nil {
		return fmt.Errorf("shell: %w", err)
	}
	published := make(chan *wire.Message, 100)
	go func() {
		for {
			raw, err := iopub.Recv()
			if err != nil {
				close(published)
				return
			}
			if pm, err := codec.Decode(raw.Frames); err == nil {
				published <- pm
			}
		}
	}()
	// As jupyter_client's wait_for_ready: kernel_info until its status shows
	// on iopub (one sent before the subscription reached the kernel is
	// published to nobody).
	for served := false; !served; {
		m, err := wire.NewMessage("kernel_info_request", "late", nil, map[string]any{})
		if err != nil {
			return err
		}
		frames, err := codec.Encode(m)
		if err != nil {
			return err
		}
		if err := shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
			return err
		}
		raw, err := shell.Recv()
		if err != nil {
			return fmt.Errorf("shell: %w", err)
		}
		rep, err := codec.Decode(raw.Frames)
		if err != nil || rep.Header.MsgType != "kernel_info_reply" {
			return fmt.Errorf("shell answered %v (%v)", rep, err)
		}
		wait := time.After(time.Second)
	iopubWait:
		for {
			select {
			case pm, ok := <-published:
				if !ok {
					return fmt.Errorf("iopub closed: %w", ctx.Err())
				}
				if pm.Parent != nil && pm.Parent.MsgID == m.Header.MsgID && strings.Contains(string(pm.Content), "idle") {
					served = true
					break iopubWait
				}
			case <-wait:
				break iopubWait
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return heartbeatEchoes(ctx, ci)
}

// heartbeatEchoes sends one ping to the heartbeat port and waits for its echo.
func heartbeatEchoes(ctx context.Context, ci ConnectionInfo) error {
	hb := zmq4.NewReq(ctx)
	defer hb.Close()
	if err := hb.Dial(ci.Endpoint(ci.HBPort)); err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	if err := hb.Send(zmq4.NewMsgString("ping")); err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	m, err := hb.Recv()
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	if string(m.Frames[0]) != "ping" {
		return fmt.Errorf("heartbeat echoed %q", m.Frames[0])
	}
	return nil
}

// rawZMTP connects to endpoint over TCP and sends a ZMTP 3.0 NULL greeting;
// with ready set it completes the handshake as a peerType socket.
func rawZMTP(t *testing.T, endpoint, peerType string, ready bool) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(endpoint, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	var greet [64]byte
	greet[0], greet[9], greet[10], greet[11] = 0xff, 0x7f, 3, 0
	copy(greet[12:32], "NULL")
	if _, err := conn.Write(greet[:]); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer conn.SetReadDeadline(time.Time{})
	if _, err := io.ReadFull(conn, greet[:]); err != nil {
		t.Fatalf("read the kernel's greeting: %v", err)
	}
	if !ready {
		return conn
	}
	var body bytes.Buffer
	body.WriteByte(5)
	body.WriteString("READY")
	body.WriteByte(byte(len("Socket-Type")))
	body.WriteString("Socket-Type")
	binary.Write(&body, binary.BigEndian, uint32(len(peerType)))
	body.WriteString(peerType)
	if _, err := conn.Write(append([]byte{0x04, byte(body.Len())}, body.Bytes()...)); err != nil {
		t.Fatal(err)
	}
	var hdr [2]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		t.Fatalf("read the kernel's READY: %v", err)
	}
	if _, err := io.ReadFull(conn, make([]byte, hdr[1])); err != nil {
		t.Fatalf("read the kernel's READY: %v", err)
	}
	return conn
}

// writeLongFrameHeader writes the header of a long frame (a command when cmd is set) announcing size bytes.
func writeLongFrameHeader(t *testing.T, conn net.Conn, cmd bool, size uint64) {
	t.Helper()
	var hdr [9]byte
	hdr[0] = 0x02
	if cmd {
		hdr[0] |= 0x04
	}
	binary.BigEndian.PutUint64(hdr[1:], size)
	if _, err := conn.Write(hdr[:]); err != nil {
		t.Fatal(err)
	}
}

// waitPeerClosed waits until the other side closes conn.
func waitPeerClosed(conn net.Conn, timeout time.Duration) error {
	conn.SetReadDeadline(time.Now().Add(timeout))
	buf := make([]byte, 4096)
	for {
		_, err := conn.Read(buf)
		var ne net.Error
		switch {
		case err == nil:
		case errors.As(err, &ne) && ne.Timeout():
			return fmt.Errorf("still open after %v", timeout)
		default:
			return nil
		}
	}
}
