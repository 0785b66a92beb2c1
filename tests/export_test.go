package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// offlineEnv is base as a user's shell without network has it: GOFLAGS
// empty (no -mod=mod) and GOPROXY off, so a go command can use only the
// module cache that built goaccel.
func offlineEnv(base []string) []string {
	var env []string
	for _, kv := range base {
		if !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "GOPROXY=") {
			env = append(env, kv)
		}
	}
	return append(env, "GOFLAGS=", "GOPROXY=off")
}

// Two `%accelerate export` folders, one from a session on goaccel's own
// executor and one from a session moved to a derived executor (it imports a
// package of a local module with `%go mod use`), build and run with the
// commands their README.md and the export cell name: plain `go build`,
// `go run .` and `goaccel launch --num_processes 2` on the folder, with no
// GOFLAGS and no network. The exported go.mod used to require goaccel alone
// ("go: updates to go.mod needed"), and `goaccel launch .` built into its
// own build folder.
func TestAnExportBuildsAndRunsOfflineAsItsReadmeSays(t *testing.T) {
	debian := jupyterStacks()[0] // the export needs one kernel client, not each stack
	debian.require(t, clientModules...)
	dataDir := e2eKernel(t)
	goaccel := filepath.Join(filepath.Dir(dataDir), "goaccel")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	mylib := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":         "module example.com/mylib\n\ngo 1.22\n",
		"greet/greet.go": "package greet\n\n// Hello greets who.\nfunc Hello(who string) string { return \"hello \" + who }\n",
	} {
		path := filepath.Join(mylib, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exports := t.TempDir()
	export := exec.CommandContext(ctx, debian.python, "export_e2e.py", exports, mylib)
	export.Env = debian.env(offlineEnv(launchEnv(t, dataDir)))
	out, err := export.CombinedOutput()
	if err != nil {
		t.Fatalf("export from the notebook: %v\n%s", err, out)
	}
	for _, want := range []string{"run it with: cd ", " && go run .   (or goaccel launch --num_processes N .)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the export cell's message lacks %q:\n%s", want, out)
		}
	}

	tests := []struct {
		name string
		rank string // what each rank prints, after "rank N of 2 "
	}{
		{"plain", "sum 8"},
		{"derived", "hello gopher"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(exports, tt.name)
			readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			train := filepath.Join(dir, "train")
			for _, c := range []struct {
				readme string // the README's line, "" for a command it does not name
				dir    string
				args   []string
				runs   bool
			}{
				{"go build -o train .", dir, []string{"go", "build", "-o", "train", "."}, false},
				{"go run .", dir, []string{"go", "run", "."}, true},
				{"goaccel launch --num_processes 4 .", dir, []string{goaccel, "launch", "--num_processes", "2", "."}, true},
				{"", t.TempDir(), []string{goaccel, "launch", "--num_processes", "2", dir}, true},
				{"", t.TempDir(), []string{goaccel, "launch", "--num_processes", "2", train}, true},
			} {
				if c.readme != "" && !strings.Contains(string(readme), "\n"+c.readme) {
					t.Errorf("README.md does not name %q:\n%s", c.readme, readme)
				}
				cmd := exec.CommandContext(ctx, c.args[0], c.args[1:]...)
				cmd.Dir, cmd.Env = c.dir, offlineEnv(os.Environ())
				b, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s in %s: %v\n%s", strings.Join(c.args, " "), c.dir, err, b)
				}
				for _, want := range []string{"rank 0 of 2 " + tt.rank, "[rank 1] rank 1 of 2 " + tt.rank} {
					if c.runs && !strings.Contains(string(b), want) {
						t.Errorf("%s: output lacks %q:\n%s", strings.Join(c.args, " "), want, b)
					}
				}
			}
		})
	}
}
