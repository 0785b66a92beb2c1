package kernel

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/goaccel/goaccel/internal/ratelog"
	"github.com/goaccel/goaccel/kernel/wire"
)

// channel is one bound ZeroMQ socket with the codec that signs and verifies
// its messages. Sends are serialised; zmq4 sockets are not meant for
// concurrent writers.
type channel struct {
	name  string
	sock  zmq4.Socket
	codec *wire.Codec
	log   *slog.Logger
	mu    sync.Mutex
}

// socketOptions are the options of every kernel socket: inbound messages
// up to maxSize bytes, a bounded handshake, and zmq4's diagnostics (a refused
// connection, an oversized message) in the kernel's log.
func (k *Kernel) socketOptions(maxSize int64) []zmq4.Option {
	return []zmq4.Option{
		zmq4.WithMaxMessageSize(maxSize),
		zmq4.WithHandshakeTimeout(k.cfg.HandshakeTimeout),
		zmq4.WithLogger(log.New(k.zmqLog, "", 0)),
	}
}

// zmqLog takes zmq4's diagnostics into the kernel's log, at most one line
// per ten seconds: whoever can reach the ports could otherwise flood the log
// with refused connections.
type zmqLog struct {
	log   *slog.Logger
	limit ratelog.Limiter
}

func newZMQLog(l *slog.Logger) *zmqLog {
	return &zmqLog{log: l.With("component", "zmq4"), limit: ratelog.Limiter{Every: 10 * time.Second}}
}

func (z *zmqLog) Write(p []byte) (int, error) {
	if ok, skipped := z.limit.Allow(); ok {
		z.log.Warn(strings.TrimSpace(string(p)), "similar_not_logged", skipped)
	}
	return len(p), nil
}

func bind(name string, sock zmq4.Socket, endpoint string, codec *wire.Codec, log *slog.Logger) (*channel, error) {
	if err := sock.Listen(endpoint); err != nil {
		return nil, fmt.Errorf("bind %s channel to %s: %w", name, endpoint, err)
	}
	return &channel{name: name, sock: sock, codec: codec, log: log}, nil
}

// send signs and sends m.
func (c *channel) send(m *wire.Message) error {
	frames, err := c.codec.Encode(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		return fmt.Errorf("send %s on %s: %w", m.Header.MsgType, c.name, err)
	}
	return nil
}

// serve receives messages until ctx ends and hands each verified one to
// handle. Messages with a bad signature, malformed frames or invalid JSON are
// logged and dropped; the channel keeps serving.
func (c *channel) serve(ctx context.Context, handle func(*wire.Message)) {
	for {
		raw, err := c.sock.Recv()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			c.log.Warn("receive failed", "channel", c.name, "err", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		m, err := c.codec.Decode(raw.Frames)
		if err != nil {
			c.log.Warn("dropped a malformed or unsigned message", "channel", c.name, "err", err, "frames", len(raw.Frames))
			continue
		}
		c.log.Debug("received", "channel", c.name, "msg_type", m.Header.MsgType, "msg_id", m.Header.MsgID)
		handle(m)
	}
}

// heartbeat echoes every message on the hb REP socket.
func heartbeat(ctx context.Context, sock zmq4.Socket, log *slog.Logger) {
	for {
		msg, err := sock.Recv()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			log.Debug("heartbeat receive", "err", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := sock.Send(msg); err != nil {
			log.Debug("heartbeat send", "err", err)
		}
	}
}
