package gobuild

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// WriteFiles writes a generated program's files (name → content) into dir.
func WriteFiles(dir string, files map[string][]byte) error {
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return fmt.Errorf("write %s of the generated program: %w", name, err)
		}
	}
	return nil
}

// Run runs a command of the build (name with args) in dir with Env and returns its combined
// output. When ctx ends first, the error says the build was stopped.
func Run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = Env()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, fmt.Errorf("%w: the build was stopped", ctx.Err())
	}
	return out, err
}
