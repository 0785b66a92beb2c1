package store

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
)

// authedConn is a raw connection that passed the token check.
func authedConn(t *testing.T, s *Server) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := auth.Connect(c, s.token, purpose, 0); err != nil {
		t.Fatal(err)
	}
	return c
}

// serveWith starts a server with the given bounds.
func serveWith(t *testing.T, idle, request time.Duration) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(ln, []byte("tok"))
	s.idleTimeout, s.requestTimeout = idle, request
	s.wg.Add(1)
	go s.acceptLoop()
	t.Cleanup(func() { s.Close() })
	return s
}

// closedWithin reports whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	var b [1]byte
	_, err := c.Read(b[:])
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// A token holder announcing a 1 GiB key makes the store allocate only what
// it actually sends.
func TestAValueLengthAloneReservesNoMemory(t *testing.T) {
	s := serve(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 4 {
		c := authedConn(t, s)
		msg := []byte{opSet}
		msg = binary.LittleEndian.AppendUint32(msg, 1<<30)
		if _, err := c.Write(append(msg, "only a few bytes"...)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Fatalf("4 connections announcing 1 GiB values made the store allocate %d MiB", grew>>20)
	}
}

// An authenticated connection that stops sending, idle between requests or
// in the middle of one, is closed; a registered rank's liveness connection,
// idle by design, is not.
func TestAuthenticatedConnectionsHaveReadDeadlines(t *testing.T) {
	s := serveWith(t, 300*time.Millisecond, 300*time.Millisecond)
	idle := authedConn(t, s)
	partial := authedConn(t, s)
	if _, err := partial.Write([]byte{opSet, 10, 0, 0, 0, 'k'}); err != nil {
		t.Fatal(err)
	}
	live := authedConn(t, s)
	w := bufio.NewWriter(live)
	w.WriteByte(opRegister)
	writeInt(w, 3)
	w.Flush()
	if err := status(bufio.NewReader(live)); err != nil {
		t.Fatal(err)
	}
	if !closedWithin(idle, 5*time.Second) {
		t.Error("an idle authenticated connection stayed open past the idle timeout")
	}
	if !closedWithin(partial, 5*time.Second) {
		t.Error("a connection that stopped mid-request stayed open past the request timeout")
	}
	if closedWithin(live, time.Second) {
		t.Error("a registered rank's liveness connection was closed for being idle")
	}
}

// A client whose connection sat idle redials instead of using one the
// server may have closed.
func TestClientRedialsAfterIdling(t *testing.T) {
	s := serveWith(t, 200*time.Millisecond, time.Minute)
	c := dial(t, s, "tok")
	c.maxIdle = 100 * time.Millisecond
	ctx := context.Background()
	for i := range 3 {
		if err := c.Set(ctx, "k", []byte{byte(i)}); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
		time.Sleep(400 * time.Millisecond)
	}
	if v, err := c.Get(ctx, "k"); err != nil || v[0] != 2 {
		t.Fatalf("get after idling: %v %v", v, err)
	}
}

const envFloodChild = "GOACCEL_TEST_STORE_FLOOD_CHILD"

// A flood of connections exhausts the store's file descriptors (here a
// limit of 48): Accept fails with "too many open files". The store backs
// off and keeps accepting once the flood ends, and warns about it a few
// times, not once per failure.
func TestStoreServesAgainAfterAcceptFailures(t *testing.T) {
	if os.Getenv(envFloodChild) != "" {
		floodChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreServesAgainAfterAcceptFailures$")
	cmd.Env = append(os.Environ(), envFloodChild+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	addr = strings.TrimSpace(addr)
	var flood []net.Conn
	for range 120 {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		flood = append(flood, c)
	}
	time.Sleep(1500 * time.Millisecond) // Accept fails over and over meanwhile
	for _, c := range flood {
		c.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, []byte("tok"), 0)
	if err != nil {
		t.Fatalf("after a flood of %d connections the store serves no one: %v\nchild stderr:\n%s", len(flood), err, stderr.String())
	}
	defer c.Close()
	if err := c.Set(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	warnings := strings.Count(stderr.String(), "accepting a connection failed")
	if warnings == 0 || warnings > 3 {
		t.Fatalf("%d accept warnings during a 1.5 s flood; want 1 to 3 (rate-limited):\n%s", warnings, stderr.String())
	}
}

// floodChild serves a store with few file descriptors and prints its address.
func floodChild() {
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: 48, Max: 48}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(2)
	}
	s, err := Serve("127.0.0.1:0", []byte("tok"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(s.Addr())
	select {}
}
