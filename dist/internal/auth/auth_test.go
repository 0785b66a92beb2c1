package auth

import (
	"errors"
	"net"
	"testing"
)

func TestHandshake(t *testing.T) {
	cases := []struct {
		name          string
		server, cli   string
		wantRejection bool
	}{
		{"same token is accepted", "secret", "secret", false},
		{"wrong token is rejected", "secret", "guess", true},
		{"empty token is rejected by a set one", "secret", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			defer b.Close()
			type res struct {
				rank int
				err  error
			}
			done := make(chan res, 1)
			go func() {
				r, err := Accept(a, []byte(c.server), "test")
				if err != nil {
					a.Close()
				}
				done <- res{r, err}
			}()
			cerr := Connect(b, []byte(c.cli), "test", 3)
			r := <-done
			if c.wantRejection {
				if !errors.Is(r.err, ErrBadToken) || !errors.Is(cerr, ErrBadToken) {
					t.Fatalf("want rejection on both sides, got accept=%v connect=%v", r.err, cerr)
				}
				return
			}
			if r.err != nil || cerr != nil || r.rank != 3 {
				t.Fatalf("accept=%v rank=%d connect=%v", r.err, r.rank, cerr)
			}
		})
	}
}

func TestPurposeSeparatesHandshakes(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	done := make(chan error, 1)
	go func() {
		_, err := Accept(a, []byte("k"), "store")
		a.Close()
		done <- err
	}()
	_ = Connect(b, []byte("k"), "mesh", 0)
	if err := <-done; !errors.Is(err, ErrBadToken) {
		t.Fatalf("a mesh answer must not open the store: %v", err)
	}
}
