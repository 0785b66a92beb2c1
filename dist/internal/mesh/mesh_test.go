package mesh

import (
	"context"
	"errors"
	"net"
	"sync"
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
			ms[r], errs[r] = Establish(ctx, r, 2, []byte("tok"), lns[r], addrs)
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
		go func() { defer wg.Done(); ms[r], _ = Establish(ctx, r, 3, []byte("t"), lns[r], addrs) }()
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
			ms[r], errs[r] = Establish(ctx, r, size, []byte("tok"), lns[r], addrs)
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
