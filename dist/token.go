package dist

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
	"github.com/goaccel/goaccel/dist/internal/store"
)

// tokenFile is where a one-host job without GOACCEL_STORE_TOKEN shares its
// token: a folder only this user may enter, one file per rendezvous port.
func tokenFile(port int) string {
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, fmt.Sprintf("goaccel-%d", os.Getuid()), fmt.Sprintf("store-%d.token", port))
}

// writeTokenFile stores a fresh token for this job and returns it.
func writeTokenFile(path string) (string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("dist: token folder: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("dist: token folder: %w", err)
	}
	if !st.IsDir() || st.Mode().Perm() != 0o700 {
		return "", fmt.Errorf("dist: %s must be a folder with mode 0700 (it is %v); remove it or set %s", dir, st.Mode(), EnvStoreToken)
	}
	tok := NewToken()
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return "", fmt.Errorf("dist: token file: %w", err)
	}
	_, err = tmp.WriteString(tok)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("dist: token file: %w", err)
	}
	return tok, nil
}

// dialWithTokenFile connects to the store using the token rank 0 wrote,
// re-reading the file while it is missing or stale (a previous job's).
func dialWithTokenFile(ctx context.Context, addr, path string, rank int) (*store.Client, string, error) {
	for {
		tok, err := os.ReadFile(path)
		if err == nil {
			c, err := store.Dial(ctx, addr, tok, rank)
			if err == nil {
				return c, string(tok), nil
			}
			if !errors.Is(err, auth.ErrBadToken) {
				return nil, "", err
			}
		}
		select {
		case <-ctx.Done():
			return nil, "", fmt.Errorf("dist: no valid token in %s (rank 0 writes it; or set %s on every rank): %w", path, EnvStoreToken, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
