package celllaunch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goaccel/goaccel/internal/program"
)

// EnvCache names the folder of compiled workers (default: goaccel/workers in
// the user's cache folder).
const EnvCache = "GOACCEL_CACHE"

const workerBinary = "worker"

// build returns a compiled worker binary for p: from the cache when the same
// program was built against the same goaccel before, else built now with
// `go build`. how says which ("cached build" or "built in 12.3 s").
func build(ctx context.Context, p *program.Program, out io.Writer) (bin, how string, err error) {
	main, err := p.WorkerMain()
	if err != nil {
		return "", "", err
	}
	m, err := findModule()
	if err != nil {
		return "", "", err
	}
	files := map[string][]byte{
		program.File: []byte(p.Source),
		"main.go":    []byte(main),
		"go.mod":     []byte(m.goMod("goaccel.notebook/worker", "The compiled worker program of a notebook launch", true)),
		"go.sum":     m.goSum(),
	}
	root, err := cacheRoot()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(root, cacheKey(files))
	bin = filepath.Join(dir, workerBinary)
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
		now := time.Now()
		_ = os.Chtimes(dir, now, now) // recently used: pruning keeps it
		return bin, "cached build", nil
	}
	gotool, err := goTool()
	if err != nil {
		return "", "", err
	}
	tmp, err := os.MkdirTemp(root, ".build-")
	if err != nil {
		return "", "", fmt.Errorf("make a build folder: %w", err)
	}
	defer os.RemoveAll(tmp) // after a successful rename, nothing is left there
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), content, 0o644); err != nil {
			return "", "", fmt.Errorf("write the worker program: %w", err)
		}
	}
	fmt.Fprintf(out, "Building the workers of %s with go build (once for this code: later launches reuse it)...\n", p.Func)
	start := time.Now()
	cmd := exec.CommandContext(ctx, gotool, "build", "-o", workerBinary, ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	output, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", "", fmt.Errorf("%w: the build was stopped", ctx.Err())
	}
	if err != nil {
		if len(program.Positions(string(output))) > 0 {
			return "", "", compileError(p, string(output))
		}
		return "", "", fmt.Errorf("go build of the worker program failed (%v):\n%s", err, strings.TrimSpace(string(output)))
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(bin); statErr != nil { // not a concurrent build of the same program
			return "", "", fmt.Errorf("store the worker build: %w", err)
		}
	}
	prune(root, keepBuilds)
	return bin, fmt.Sprintf("built in %.1f s", time.Since(start).Seconds()), nil
}

// keepBuilds is how many compiled workers the cache keeps (each is a few
// tens of MB); the least recently used go first.
const keepBuilds = 16

// prune removes all but the keep most recently used builds of root, and
// build folders a crash left behind.
func prune(root string, keep int) {
	entries, err := os.ReadDir(root)
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
		path := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), ".build-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(path)
			}
			continue
		}
		builds = append(builds, build{path, info.ModTime()})
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].used.After(builds[j].used) })
	for _, b := range builds[min(keep, len(builds)):] {
		os.RemoveAll(b.path)
	}
}

// cacheRoot is the folder of compiled workers, created if missing.
func cacheRoot() (string, error) {
	root := os.Getenv(EnvCache)
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find a cache folder for compiled workers (set %s): %w", EnvCache, err)
		}
		root = filepath.Join(c, "goaccel", "workers")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("make the compiled workers' cache: %w", err)
	}
	return root, nil
}

// cacheKey is the content address of a build: its files, and the goaccel
// binary running now (a rebuilt goaccel may mean changed library code).
func cacheKey(files map[string][]byte) string {
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
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "goaccel %s %d %d\n", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
