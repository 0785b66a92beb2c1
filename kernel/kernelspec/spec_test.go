package kernelspec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallWritesKernelJSONJupyterCanStart(t *testing.T) {
	dir := t.TempDir()
	path, err := Install(dir, "/opt/bin/goaccel")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "kernels", "goaccel", "kernel.json") {
		t.Fatalf("path = %s", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	argv := got["argv"].([]any)
	if len(argv) != 3 || argv[0] != "/opt/bin/goaccel" || argv[1] != "kernel" || argv[2] != "{connection_file}" {
		t.Errorf("argv = %v", argv)
	}
	for k, want := range map[string]string{"display_name": "Go (goaccel)", "language": "go", "interrupt_mode": "message"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %s", k, got[k], want)
		}
	}
}

func TestInstallRejectsRelativeBinary(t *testing.T) {
	if _, err := Install(t.TempDir(), "bin/goaccel"); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Fatalf("err = %v", err)
	}
}

func TestDataDirOrder(t *testing.T) {
	tests := []struct {
		name, goos, prefix, jdd, xdg, home, want string
		user                                     bool
	}{
		{"prefix wins", "linux", "/p", "/j", "/x", "/h", "/p/share/jupyter", true},
		{"JUPYTER_DATA_DIR", "linux", "", "/j", "/x", "/h", "/j", true},
		{"XDG_DATA_HOME", "linux", "", "", "/x", "/h", "/x/jupyter", true},
		{"home", "linux", "", "", "", "/h", "/h/.local/share/jupyter", true},
		{"system-wide", "linux", "", "/j", "/x", "/h", SystemDataDir, false},
		{"macOS: JUPYTER_DATA_DIR", "darwin", "", "/j", "/x", "/h", "/j", true},
		{"macOS: Library, not XDG_DATA_HOME", "darwin", "", "", "/x", "/h", "/h/Library/Jupyter", true},
		{"macOS: home", "darwin", "", "", "", "/h", "/h/Library/Jupyter", true},
		{"macOS: prefix wins", "darwin", "/p", "/j", "/x", "/h", "/p/share/jupyter", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("JUPYTER_DATA_DIR", tt.jdd)
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			t.Setenv("HOME", tt.home)
			got, err := dataDir(Target{Prefix: tt.prefix, User: tt.user}, tt.goos)
			if err != nil || got != tt.want {
				t.Fatalf("dataDir(%s) = %q, %v; want %q", tt.goos, got, err, tt.want)
			}
		})
	}
}
