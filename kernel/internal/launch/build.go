package launch

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/program"
)

const workerBinary = "worker"

// keepBuilds is how many compiled workers the cache keeps (each is a few
// tens of MB); the least recently used go first.
const keepBuilds = 16

// build returns a compiled worker binary for p: from the cache when the same
// program was built against the same goaccel (identity, see Request) before, else built now with
// `go build`. how says which ("cached build" or "built in 12.3 s").
func build(ctx context.Context, p *program.Program, identity string, out io.Writer) (bin, how string, err error) {
	main, err := p.WorkerMain()
	if err != nil {
		return "", "", err
	}
	m, err := gobuild.FindModule()
	if err != nil {
		return "", "", err
	}
	goMod, err := m.GoMod("goaccel.notebook/worker", "The compiled worker program of a notebook launch", nil)
	if err != nil {
		return "", "", err
	}
	files := map[string][]byte{
		program.File: []byte(p.Source),
		"main.go":    []byte(main),
		"go.mod":     []byte(goMod),
		"go.sum":     m.GoSum(),
	}
	cache, err := gobuild.OpenCache("workers", keepBuilds)
	if err != nil {
		return "", "", err
	}
	key := gobuild.Key(identity, files)
	if dir, ok := cache.Lookup(key, workerBinary); ok {
		return filepath.Join(dir, workerBinary), "cached build", nil
	}
	gotool, err := gobuild.GoTool()
	if err != nil {
		return "", "", fmt.Errorf("--compile builds the workers: %w (or launch without --compile: interpreted workers)", err)
	}
	start := time.Now()
	dir, err := cache.Build(key, func(tmp string) error {
		if err := gobuild.WriteFiles(tmp, files); err != nil {
			return err
		}
		fmt.Fprintf(out, "Building the workers of %s with go build (once for this code: later launches reuse it)...\n", p.Func)
		output, err := gobuild.Run(ctx, tmp, gotool, "build", "-o", workerBinary, ".")
		if ctx.Err() != nil {
			return err
		}
		if err != nil {
			if len(program.Positions(string(output))) > 0 {
				return compileError(p, string(output))
			}
			return fmt.Errorf("go build of the worker program failed (%v):\n%s", err, strings.TrimSpace(string(output)))
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return filepath.Join(dir, workerBinary), fmt.Sprintf("built in %.1f s", time.Since(start).Seconds()), nil
}
