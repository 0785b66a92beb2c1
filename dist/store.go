package dist

import (
	"context"
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

// prefixed scopes a store client's keys to one group.
type prefixed struct {
	c      *store.Client
	prefix string
}

func (p prefixed) Set(ctx context.Context, key string, value []byte) error {
	return p.c.Set(ctx, p.prefix+key, value)
}

func (p prefixed) Get(ctx context.Context, key string) ([]byte, error) {
	return p.c.Get(ctx, p.prefix+key)
}

func (p prefixed) Add(ctx context.Context, key string, delta int64) (int64, error) {
	return p.c.Add(ctx, p.prefix+key, delta)
}

func (p prefixed) Wait(ctx context.Context, keys ...string) error {
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = p.prefix + k
	}
	return p.c.Wait(ctx, full...)
}
