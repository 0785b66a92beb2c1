package kernelspec

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Name is the kernelspec directory name ("jupyter console --kernel goaccel").
const Name = "goaccel"

// Spec is the content of kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// New returns the spec that starts binary (an absolute path) with
// "kernel {connection_file}" and asks Jupyter for message-mode interrupts.
func New(binary string) Spec {
	return Spec{
		Argv:          []string{binary, "kernel", "{connection_file}"},
		DisplayName:   "Go (goaccel)",
		Language:      "go",
		InterruptMode: "message",
	}
}

// SystemDataDir is where a system-wide install goes (the first entry of
// Jupyter's system path on Linux and macOS).
const SystemDataDir = "/usr/local/share/jupyter"

// Target says where to install: Prefix (P/share/jupyter, like
// "jupyter kernelspec install --prefix"), the user's data directory (User),
// or else the system-wide SystemDataDir.
type Target struct {
	Prefix string
	User   bool
}

// DataDir resolves the Jupyter data directory for t on this system: Prefix
// wins; then, for a user install, $JUPYTER_DATA_DIR, then Jupyter's own user
// data directory (userDataDir); else SystemDataDir.
func DataDir(t Target) (string, error) {
	return dataDir(t, runtime.GOOS)
}

func dataDir(t Target, goos string) (string, error) {
	if t.Prefix != "" {
		p, err := filepath.Abs(t.Prefix)
		if err != nil {
			return "", fmt.Errorf("prefix %q: %w", t.Prefix, err)
		}
		return filepath.Join(p, "share", "jupyter"), nil
	}
	if !t.User {
		return SystemDataDir, nil
	}
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	return userDataDir(goos)
}

// userDataDir is jupyter_core's jupyter_data_dir() on goos: ~/Library/Jupyter
// on macOS (where Jupyter never looks in ~/.local/share), else
// $XDG_DATA_HOME/jupyter or ~/.local/share/jupyter.
func userDataDir(goos string) (string, error) {
	if goos != "darwin" {
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			return filepath.Join(x, "jupyter"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the Jupyter data directory: %w (set JUPYTER_DATA_DIR or use --prefix)", err)
	}
	if goos == "darwin" {
		return filepath.Join(home, "Library", "Jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// Install writes dataDir/kernels/goaccel/kernel.json for binary and returns its path.
func Install(dataDir, binary string) (string, error) {
	if !filepath.IsAbs(binary) {
		return "", errors.New("kernelspec: the kernel binary path must be absolute, got " + binary)
	}
	dir := filepath.Join(dataDir, "kernels", Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create kernelspec dir: %w", err)
	}
	b, err := json.MarshalIndent(New(binary), "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode kernel.json: %w", err)
	}
	path := filepath.Join(dir, "kernel.json")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("write kernelspec: %w", err)
	}
	return path, nil
}
