package dist

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/goaccel/goaccel/dist/internal/store"
)

// StoreServer is a rendezvous store hosted outside the ranks, by a launcher:
// start it, give every worker GOACCEL_STORE_ADDR=Addr() and
// GOACCEL_STORE_TOKEN=token, and close it when the workers are done. Because
// it outlives the workers, it also records which rank disconnected first.
type StoreServer struct{ s *store.Server }

// ServeStore starts a store on addr ("127.0.0.1:0" for a free loopback port;
// a non-loopback address only for multi-host jobs) that accepts only
// connections proving they know token.
func ServeStore(addr, token string) (*StoreServer, error) {
	if token == "" {
		return nil, fmt.Errorf("dist: ServeStore needs a token (use NewToken)")
	}
	s, err := store.Serve(addr, []byte(token))
	if err != nil {
		return nil, fmt.Errorf("dist: %w", err)
	}
	return &StoreServer{s: s}, nil
}

// Addr is the host:port workers connect to.
func (s *StoreServer) Addr() string { return s.s.Addr() }

// Close stops the store.
func (s *StoreServer) Close() error { return s.s.Close() }

// NewToken returns a fresh random job token (32 hex digits).
func NewToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails on supported platforms (crypto/rand panics instead)
	return hex.EncodeToString(b)
}
