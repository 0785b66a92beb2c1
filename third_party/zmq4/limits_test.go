// Copyright 2026 The go-zeromq Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package zmq4_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// limitCase is a listening socket type, the type a peer of it announces, and
// a check that the listener still serves a well-behaved peer.
type limitCase struct {
	name     string
	listen   func(ctx context.Context, opts ...zmq4.Option) zmq4.Socket
	peerType string
	exchange func(ctx context.Context, srv zmq4.Socket, ep string) error
}

var limitCases = []limitCase{
	{"router", zmq4.NewRouter, "DEALER", exchangeRouter},
	{"rep", zmq4.NewRep, "REQ", exchangeRep},
	{"pub", zmq4.NewPub, "SUB", exchangePub},
	{"pull", zmq4.NewPull, "PUSH", exchangePull},
	{"dealer", zmq4.NewDealer, "DEALER", exchangeDealer},
	{"pair", zmq4.NewPair, "PAIR", exchangePair},
}

// A peer that announces a frame larger than WithMaxMessageSize, during the
// handshake or after it, is disconnected without the socket allocating what
// it announced, and the socket goes on serving other peers.
func TestMaxMessageSizeRefusesAnnouncedFrameBeforeAllocating(t *testing.T) {
	for _, tc := range limitCases {
		for _, when := range []string{"handshake", "message"} {
			t.Run(tc.name+"/"+when, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				ep := must(EndPoint("tcp"))
				srv := tc.listen(ctx, zmq4.WithMaxMessageSize(1<<20), zmq4.WithLogger(discardLogger()))
				defer srv.Close()
				if err := srv.Listen(ep); err != nil {
					t.Fatal(err)
				}
				before := totalAlloc()
				conn := rawPeer(t, ep, tc.peerType, when == "message")
				defer conn.Close()
				writeFrameHeader(t, conn, when == "handshake", 1<<30)
				if err := waitClosed(conn, 10*time.Second); err != nil {
					t.Fatalf("the socket kept a peer that announced a 1 GiB frame over a 1 MiB limit: %v", err)
				}
				if grew := totalAlloc() - before; grew > 64<<20 {
					t.Fatalf("the socket allocated %d MiB for a frame it refused", grew>>20)
				}
				if err := tc.exchange(ctx, srv, ep); err != nil {
					t.Fatalf("the socket no longer serves a well-behaved peer: %v", err)
				}
			})
		}
	}
}

// Without a maximum message size a frame header alone cannot make the socket
// reserve memory: a body is allocated as its bytes arrive.
func TestAnnouncedFrameIsNotAllocatedUpFront(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ep := must(EndPoint("tcp"))
	srv := zmq4.NewRouter(ctx, zmq4.WithLogger(discardLogger()))
	defer srv.Close()
	if err := srv.Listen(ep); err != nil {
		t.Fatal(err)
	}
	before := totalAlloc()
	for _, size := range []uint64{1 << 40, 1 << 50, 1<<63 - 1} {
		conn := rawPeer(t, ep, "DEALER", true)
		writeFrameHeader(t, conn, false, size)
		if _, err := conn.Write(make([]byte, 4096)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		conn.Close()
	}
	if grew := totalAlloc() - before; grew > 64<<20 {
		t.Fatalf("the socket allocated %d MiB for frames whose bytes never came", grew>>20)
	}
	if err := exchangeRouter(ctx, srv, ep); err != nil {
		t.Fatal(err)
	}
}

// Messages up to the limit, in one frame or several, still get through.
func TestMaxMessageSizeAcceptsMessagesWithinIt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ep := must(EndPoint("tcp"))
	const limit = 4 << 20
	pull := zmq4.NewPull(ctx, zmq4.WithMaxMessageSize(limit))
	defer pull.Close()
	if err := pull.Listen(ep); err != nil {
		t.Fatal(err)
	}
	push := zmq4.NewPush(ctx)
	defer push.Close()
	if err := push.Dial(ep); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), 3<<20) // several read chunks
	for _, m := range []zmq4.Msg{
		zmq4.NewMsg(big),
		zmq4.NewMsgFrom([]byte("a"), big[:1<<20], []byte("c")),
	} {
		if err := push.Send(m); err != nil {
			t.Fatal(err)
		}
		got, err := pull.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Frames) != len(m.Frames) {
			t.Fatalf("got %d frames, want %d", len(got.Frames), len(m.Frames))
		}
		for i := range m.Frames {
			if !bytes.Equal(got.Frames[i], m.Frames[i]) {
				t.Fatalf("frame %d differs (%d bytes, want %d)", i, len(got.Frames[i]), len(m.Frames[i]))
			}
		}
	}
}

// A peer that connects and never completes the handshake is disconnected
// after the handshake timeout, and meanwhile other peers connect and are
// served: the handshake runs off the accept loop.
func TestSilentPeerDoesNotLockOthersOut(t *testing.T) {
	for _, tc := range limitCases {
		for _, timeout := range []time.Duration{300 * time.Millisecond, 0} {
			t.Run(fmt.Sprintf("%s/timeout=%v", tc.name, timeout), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				ep := must(EndPoint("tcp"))
				srv := tc.listen(ctx, zmq4.WithHandshakeTimeout(timeout), zmq4.WithLogger(discardLogger()))
				defer srv.Close()
				if err := srv.Listen(ep); err != nil {
					t.Fatal(err)
				}
				silent, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
				if err != nil {
					t.Fatal(err)
				}
				defer silent.Close()
				time.Sleep(50 * time.Millisecond) // the silent peer is accepted first
				served := make(chan error, 1)
				go func() { served <- tc.exchange(ctx, srv, ep) }()
				select {
				case err := <-served:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("a silent connection locked a well-behaved peer out for 10 s")
				}
				if timeout == 0 {
					return
				}
				if err := waitClosed(silent, 10*time.Second); err != nil {
					t.Fatalf("the silent peer was not disconnected after the %v handshake timeout: %v", timeout, err)
				}
			})
		}
	}
}

// Closing a socket while handshakes are in flight leaves no connection open.
func TestCloseDuringHandshakeClosesTheConnection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ep := must(EndPoint("tcp"))
	srv := zmq4.NewRouter(ctx, zmq4.WithLogger(discardLogger()))
	if err := srv.Listen(ep); err != nil {
		t.Fatal(err)
	}
	silent, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	time.Sleep(50 * time.Millisecond)
	srv.Close()
	if err := waitClosed(silent, 5*time.Second); err != nil {
		t.Fatalf("a connection still in its handshake outlived Close: %v", err)
	}
}

func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// recvSkippingDeadPeers receives a message; sockets with one queue for all
// peers (PULL, DEALER, PAIR) first report the read error of a peer they
// disconnected.
func recvSkippingDeadPeers(s zmq4.Socket) (zmq4.Msg, error) {
	var err error
	for i := 0; i < 3; i++ {
		var m zmq4.Msg
		if m, err = s.Recv(); err == nil {
			return m, nil
		}
	}
	return zmq4.Msg{}, err
}

func totalAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// rawPeer connects to ep over TCP and sends a ZMTP 3.0 NULL greeting; with
// ready set it completes the handshake announcing socket type typ.
func rawPeer(t *testing.T, ep, typ string, ready bool) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	var greet [64]byte
	greet[0], greet[9], greet[10], greet[11] = 0xff, 0x7f, 3, 0
	copy(greet[12:32], "NULL")
	if _, err := conn.Write(greet[:]); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(conn, greet[:]); err != nil {
		t.Fatalf("read the socket's greeting: %v", err)
	}
	if !ready {
		return conn
	}
	var body bytes.Buffer
	body.WriteByte(5)
	body.WriteString("READY")
	body.WriteByte(byte(len("Socket-Type")))
	body.WriteString("Socket-Type")
	binary.Write(&body, binary.BigEndian, uint32(len(typ)))
	body.WriteString(typ)
	if _, err := conn.Write(append([]byte{0x04, byte(body.Len())}, body.Bytes()...)); err != nil {
		t.Fatal(err)
	}
	// The socket's READY command.
	var hdr [2]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		t.Fatalf("read the socket's READY: %v", err)
	}
	if _, err := io.ReadFull(conn, make([]byte, hdr[1])); err != nil {
		t.Fatalf("read the socket's READY: %v", err)
	}
	return conn
}

// writeFrameHeader writes the header of a long frame (a command when cmd is set) announcing size bytes.
func writeFrameHeader(t *testing.T, conn net.Conn, cmd bool, size uint64) {
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

// waitClosed waits until the other side closes conn.
func waitClosed(conn net.Conn, timeout time.Duration) error {
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
			return nil // EOF or reset: closed
		}
	}
}

func exchangeRouter(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("well-behaved")))
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.Send(zmq4.NewMsgString("ping")); err != nil {
		return err
	}
	m, err := srv.Recv()
	if err != nil {
		return err
	}
	if got := string(m.Frames[len(m.Frames)-1]); got != "ping" {
		return fmt.Errorf("router received %q", got)
	}
	return nil
}

func exchangeRep(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewReq(ctx)
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.Send(zmq4.NewMsgString("ping")); err != nil {
		return err
	}
	m, err := srv.Recv()
	if err != nil {
		return err
	}
	if err := srv.Send(m); err != nil {
		return err
	}
	r, err := cli.Recv()
	if err != nil {
		return err
	}
	if got := string(r.Frames[0]); got != "ping" {
		return fmt.Errorf("req received %q", got)
	}
	return nil
}

func exchangePub(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewSub(ctx)
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		return err
	}
	got := make(chan error, 1)
	go func() {
		m, err := cli.Recv()
		if err == nil && string(m.Frames[0]) != "news" {
			err = fmt.Errorf("sub received %q", m.Frames[0])
		}
		got <- err
	}()
	for {
		if err := srv.Send(zmq4.NewMsgString("news")); err != nil {
			return err
		}
		select {
		case err := <-got:
			return err
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond): // the subscription may not have arrived yet
		}
	}
}

func exchangePull(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewPush(ctx)
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.Send(zmq4.NewMsgString("work")); err != nil {
		return err
	}
	m, err := recvSkippingDeadPeers(srv)
	if err == nil && string(m.Frames[0]) != "work" {
		err = fmt.Errorf("pull received %q", m.Frames[0])
	}
	return err
}

func exchangeDealer(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewDealer(ctx)
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.Send(zmq4.NewMsgString("hello")); err != nil {
		return err
	}
	m, err := recvSkippingDeadPeers(srv)
	if err == nil && string(m.Frames[0]) != "hello" {
		err = fmt.Errorf("dealer received %q", m.Frames[0])
	}
	return err
}

func exchangePair(ctx context.Context, srv zmq4.Socket, ep string) error {
	cli := zmq4.NewPair(ctx)
	defer cli.Close()
	if err := cli.Dial(ep); err != nil {
		return err
	}
	if err := cli.Send(zmq4.NewMsgString("hello")); err != nil {
		return err
	}
	m, err := recvSkippingDeadPeers(srv)
	if err == nil && string(m.Frames[0]) != "hello" {
		err = fmt.Errorf("pair received %q", m.Frames[0])
	}
	return err
}
