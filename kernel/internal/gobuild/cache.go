package gobuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// EnvCache names the folder of goaccel's builds (default: goaccel in the
// user's cache folder); each kind of build has a folder in it.
const EnvCache = "GOACCEL_CACHE"

// Cache is a folder of builds, each in a folder named by its key.
type Cache struct {
	root string
	keep int
}

// OpenCache opens (creating) the cache of one kind of build ("workers",
// "executors"), which keeps the keep most recently used builds.
func OpenCache(kind string, keep int) (*Cache, error) {
	root := os.Getenv(EnvCache)
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("find a cache folder for goaccel's builds (set %s): %w", EnvCache, err)
		}
		root = filepath.Join(c, "goaccel")
	}
	root = filepath.Join(root, kind)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("make the build cache: %w", err)
	}
	return &Cache{root: root, keep: keep}, nil
}

// Lookup returns the folder of the build key when it holds file, marking it
// recently used.
func (c *Cache) Lookup(key, file string) (string, bool) {
	dir := filepath.Join(c.root, key)
	if st, err := os.Stat(filepath.Join(dir, file)); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now) // recently used: pruning keeps it
	return dir, true
}

// Build makes the build key: build fills a new folder, which becomes the
// build's when build succeeds (a concurrent build of the same key may win).
// It returns the build's folder.
func (c *Cache) Build(key string, build func(dir string) error) (string, error) {
	tmp, err := os.MkdirTemp(c.root, ".build-")
	if err != nil {
		return "", fmt.Errorf("make a build folder: %w", err)
	}
	defer os.RemoveAll(tmp) // after a successful rename, nothing is left there
	if err := build(tmp); err != nil {
		return "", err
	}
	dir := filepath.Join(c.root, key)
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil { // not a concurrent build of the same key
			return "", fmt.Errorf("store the build: %w", err)
		}
	}
	c.prune()
	return dir, nil
}

// prune removes all but the keep most recently used builds, and build
// folders a crash left behind.
func (c *Cache) prune() {
	entries, err := os.ReadDir(c.root)
	if err != nil {
		return
	}
	type build struct {
		path string
		used time.Time
	}
	var builds []build
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(c.root, e.Name())
		if strings.HasPrefix(e.Name(), ".build-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(path)
			}
			continue
		}
		builds = append(builds, build{path, info.ModTime()})
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].used.After(builds[j].used) })
	for _, b := range builds[min(c.keep, len(builds)):] {
		os.RemoveAll(b.path)
	}
}

// Key is the content address of a build: its files, and the goaccel whose
// library code it links, named by identity (its Identity; "": this
// binary's), since a rebuilt goaccel may mean changed library code.
func Key(identity string, files map[string][]byte) string {
	if identity == "" {
		identity = Identity()
	}
	h := sha256.New()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	fmt.Fprintf(h, "goaccel %s\n", identity)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Identity names the binary running now by its content (a hash), so that
// a binary rebuilt from the same source shares its builds. A derived
// executor is not the goaccel binary it stands for: it passes that one's
// identity (derive.Spec.Identity) to Key instead.
func Identity() string { return selfHash() }

var selfHash = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return exe
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return exe
	}
	return hex.EncodeToString(h.Sum(nil))
})
