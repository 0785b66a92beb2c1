package mesh

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
)

func TestStrayConnectionIsRefusedWhileTheGroupForms(t *testing.T) {
	lns := make([]net.Listener, 2)
	addrs := make([]string, 2)
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	// A stray process dials rank 0 first, with the wrong token.
	stray, err := net.Dial("tcp", addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer stray.Close()
	strayErr := make(chan error, 1)
	go func() { strayErr <- auth.Connect(stray, []byte("guess"), purpose, 1) }()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ms := make([]*Mesh, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r == 1 {
				time.Sleep(50 * time.Millisecond) // let the stray go first
			}
			ms[r], errs[r] = Establish(ctx, r, 2, []byte("tok"), lns[r], addrs, nil)
		}()
	}
	wg.Wait()
	if err := <-strayErr; !errors.Is(err, auth.ErrBadToken) {
		t.Fatalf("stray connection: want ErrBadToken, got %v", err)
	}
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
	defer ms[0].Close()
	defer ms[1].Close()
	if err := ms[1].Send(ctx, 0, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	b, err := ms[0].Recv(ctx, 1)
	if err != nil || string(b) != "hi" {
		t.Fatalf("%q %v", b, err)
	}
}

func TestGoodbyeEndsWaitsOnThatPeerOnly(t *testing.T) {
	lns := make([]net.Listener, 3)
	addrs := make([]string, 3)
	for i := range lns {
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ms := make([]*Mesh, 3)
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); ms[r], _ = Establish(ctx, r, 3, []byte("t"), lns[r], addrs, nil) }()
	}
	wg.Wait()
	defer ms[0].Close()
	defer ms[1].Close()
	if err := ms[1].Send(ctx, 0, []byte("x")); err != nil {
		t.Fatal(err)
	}
	ms[2].Close()
	var pe *PeerError
	if _, err := ms[0].Recv(ctx, 2); !errors.As(err, &pe) || pe.Rank != 2 {
		t.Fatalf("want rank 2 gone, got %v", err)
	}
	if b, err := ms[0].Recv(ctx, 1); err != nil || string(b) != "x" {
		t.Fatalf("rank 1's message was lost after rank 2 left: %q %v", b, err)
	}
}

// Connections that connect and stay silent do not hold up the group: each
// accepted connection authenticates on its own, so the real peers behind
// them join at once instead of after 10 s per silent connection.
func TestSilentConnectionsDoNotDelayTheGroup(t *testing.T) {
	const size = 3
	lns := make([]net.Listener, size)
	addrs := make([]string, size)
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	for range 3 {
		for _, a := range addrs[:2] {
			c, err := net.Dial("tcp", a)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	ms := make([]*Mesh, size)
	errs := make([]error, size)
	var wg sync.WaitGroup
	for r := range size {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms[r], errs[r] = Establish(ctx, r, size, []byte("tok"), lns[r], addrs, nil)
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
		defer ms[r].Close()
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("3 silent connections per rank delayed the group by %v (authentication one at a time)", d)
	}
	if err := ms[2].Send(ctx, 0, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if b, err := ms[0].Recv(ctx, 2); err != nil || string(b) != "hi" {
		t.Fatalf("recv: %q %v", b, err)
	}
}

// failingConn is a connection whose reads fail with err once it is closed
// over fail, as a kernel reports a lost peer; writes succeed.
type failingConn struct {
	net.Conn // only for the methods the mesh does not call
	fail     chan error
	remote   net.Addr
}

func (c *failingConn) Read([]byte) (int, error) {
	if err, ok := <-c.fail; ok {
		return 0, err
	}
	return 0, io.EOF
}
func (c *failingConn) Write(b []byte) (int, error)      { return len(b), nil }
func (c *failingConn) Close() error                     { return nil }
func (c *failingConn) RemoteAddr() net.Addr             { return c.remote }
func (c *failingConn) SetWriteDeadline(time.Time) error { return nil }

func TestALossIsWordedByHowTheKernelReportedIt(t *testing.T) {
	readErr := func(errno syscall.Errno) error {
		return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", errno)}
	}
	const hostGone = "its host stopped answering (network down or machine gone)"
	const processGone = "connection closed (process exited or was killed)"
	cases := []struct {
		err  error
		want string
	}{
		{readErr(syscall.ETIMEDOUT), hostGone},
		{readErr(syscall.EHOSTUNREACH), hostGone},
		{readErr(syscall.ENETUNREACH), hostGone},
		{readErr(syscall.EHOSTDOWN), hostGone},
		{readErr(syscall.ENETDOWN), hostGone},
		{readErr(syscall.ECONNRESET), processGone}, // the peer had just talked
		{io.EOF, processGone},
	}
	for _, c := range cases {
		t.Run(c.err.Error(), func(t *testing.T) {
			for _, hosts := range [][]string{{"", "node-b at 198.18.0.2"}, nil} {
				fc := &failingConn{fail: make(chan error, 1), remote: &net.TCPAddr{IP: net.IPv4(198, 18, 0, 2), Port: 4000}}
				m := newMesh(0, 2, []net.Conn{nil, fc}, hosts)
				fc.fail <- c.err
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				_, err := m.Recv(ctx, 1)
				cancel()
				close(fc.fail)
				m.Close()
				var pe *PeerError
				if !errors.As(err, &pe) {
					t.Fatalf("Recv: %v, want a *PeerError", err)
				}
				wantHost := "198.18.0.2"
				if hosts != nil {
					wantHost = hosts[1]
				}
				msg := err.Error()
				if pe.Rank != 1 || pe.Host != wantHost || !strings.Contains(msg, "rank 1 lost (host "+wantHost+"): "+c.want) {
					t.Errorf("error %q (host %q), want rank 1 on %q and %q", msg, pe.Host, wantHost, c.want)
				}
			}
		})
	}
}

// A rank that exits right after a loss (a panic, os.Exit: no Close) must
// first have told the others which rank was lost; otherwise they see only
// that it exited and blame it.
func TestALossNoticeReachesThePeersBeforeTheRankThatSawItExits(t *testing.T) {
	for run := range 20 {
		a, b := net.Pipe()
		gone := &failingConn{fail: make(chan error, 1), remote: &net.TCPAddr{IP: net.IPv4(198, 18, 0, 2), Port: 1}}
		silent := &failingConn{fail: make(chan error, 1), remote: &net.TCPAddr{IP: net.IPv4(198, 18, 0, 2), Port: 2}}
		m0 := newMesh(0, 3, []net.Conn{nil, a, gone}, nil)
		m1 := newMesh(1, 3, []net.Conn{b, nil, silent}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		gone.fail <- &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.EHOSTUNREACH)}
		if _, err := m0.Recv(ctx, 2); err == nil {
			t.Fatal("rank 0's wait on the lost rank 2 succeeded")
		}
		m0.WaitNotices() // as dist.Group does before it returns the error
		a.Close()        // rank 0 exits: no goodbye, no Close
		_, err := m1.Recv(ctx, 0)
		cancel()
		var pe *PeerError
		if !errors.As(err, &pe) || pe.Rank != 2 || pe.Reporter != 0 {
			t.Fatalf("run %d: rank 1 got %v; want rank 2's loss reported by rank 0", run, err)
		}
		close(gone.fail)
		close(silent.fail)
		m1.Close()
	}
}
