package store

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

func serve(t *testing.T) *Server {
	t.Helper()
	s, err := Serve("127.0.0.1:0", []byte("tok"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func dial(t *testing.T, s *Server, tok string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, s.Addr(), []byte(tok), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestSetGetAddCheck(t *testing.T) {
	s := serve(t)
	c := dial(t, s, "tok")
	ctx := context.Background()
	if err := c.Set(ctx, "a", []byte("1")); err != nil {
		t.Fatal(err)
	}
	v, err := c.Get(ctx, "a")
	if err != nil || string(v) != "1" {
		t.Fatalf("get: %q %v", v, err)
	}
	for want := int64(3); want <= 9; want += 3 {
		got, err := c.Add(ctx, "n", 3)
		if err != nil || got != want {
			t.Fatalf("add: %d %v want %d", got, err, want)
		}
	}
	ok, err := c.Check(ctx, "a", "missing")
	if err != nil || ok {
		t.Fatalf("check: %v %v", ok, err)
	}
}

func TestGetWaitsForALaterSet(t *testing.T) {
	s := serve(t)
	a, b := dial(t, s, "tok"), dial(t, s, "tok")
	go func() {
		time.Sleep(50 * time.Millisecond)
		b.Set(context.Background(), "k", []byte("v"))
	}()
	v, err := a.Get(context.Background(), "k")
	if err != nil || string(v) != "v" {
		t.Fatalf("%q %v", v, err)
	}
}

func TestWaitTimesOutAndConnectionStaysUsable(t *testing.T) {
	c := dial(t, serve(t), "tok")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Wait(ctx, "never"); err == nil {
		t.Fatal("want an error")
	}
	if err := c.Set(context.Background(), "x", nil); err != nil {
		t.Fatalf("after timeout: %v", err)
	}
}

func TestWrongTokenIsRefused(t *testing.T) {
	s := serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := Dial(ctx, s.Addr(), []byte("wrong"), 0); err == nil {
		t.Fatal("a wrong token joined the store")
	}
	// A raw connection that never answers must not block others.
	raw, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	c := dial(t, s, "tok")
	if err := c.Set(context.Background(), "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
}

func TestLostRankFailsWaiters(t *testing.T) {
	s := serve(t)
	a, b := dial(t, s, "tok"), dial(t, s, "tok")
	if err := b.Register(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		b.mu.Lock()
		b.live.Close() // dies without goodbye
		b.mu.Unlock()
	}()
	err := a.Wait(context.Background(), "never")
	var lost *LostError
	if !errors.As(err, &lost) || lost.Rank != 1 {
		t.Fatalf("want rank 1 lost, got %v", err)
	}
}

func TestGoodbyeIsNotALoss(t *testing.T) {
	s := serve(t)
	a, b := dial(t, s, "tok"), dial(t, s, "tok")
	if err := b.Register(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := a.Wait(ctx, "never"); errors.As(err, new(*LostError)) {
		t.Fatalf("a clean close was reported as a loss: %v", err)
	}
}

func TestDuplicateRankIsRefused(t *testing.T) {
	s := serve(t)
	a, b := dial(t, s, "tok"), dial(t, s, "tok")
	if err := a.Register(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if err := b.Register(context.Background(), 0); err == nil {
		t.Fatal("two processes registered as rank 0")
	}
}
