package derive

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequireModulesNeedsOnlyThePackagesOwnModulesOffline builds the module cache of a fresh
// machine: a dependency's module is there, the module only its tests import is not (go mod
// download of a build fetches no test-only module). Offline (GOPROXY=off), go mod tidy then
// fails, as it loads the dependencies' tests, and the derived executor used to fail with it;
// requireModules resolves the build and the build succeeds. A package no module provides
// still fails.
func TestRequireModulesNeedsOnlyThePackagesOwnModulesOffline(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root := t.TempDir()
	proxy := filepath.Join(root, "proxy")
	publish(t, proxy, "example.com/testonly", map[string]string{
		"go.mod":      "module example.com/testonly\n\ngo 1.22\n",
		"testonly.go": "package testonly\n\n// Y is used by dep's tests only.\nconst Y = 2\n",
	})
	publish(t, proxy, "example.com/dep", map[string]string{
		"go.mod":      "module example.com/dep\n\ngo 1.22\n\nrequire example.com/testonly v1.0.0\n",
		"dep.go":      "package dep\n\n// X is what the build uses.\nconst X = 1\n",
		"dep_test.go": "package dep\n\nimport (\n\t\"testing\"\n\n\t\"example.com/testonly\"\n)\n\nfunc TestX(t *testing.T) { _ = testonly.Y }\n",
	})
	build := filepath.Join(root, "build")
	write(t, build, map[string]string{
		"go.mod":  "module example.com/build\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"main.go": "package main\n\nimport \"example.com/dep\"\n\nfunc main() { println(dep.X) }\n",
	})
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GO") || k == "GOROOT" || k == "GOCACHE" || k == "GOPATH" {
			env = append(env, kv)
		}
	}
	env = append(env, "GOMODCACHE="+filepath.Join(root, "modcache"), "GOSUMDB=off", "GOFLAGS=-modcacherw",
		"GOTOOLCHAIN=local", "GOWORK=off")
	run := func(proxy string) func(what, name string, args ...string) error {
		return func(what, name string, args ...string) error {
			cmd := exec.Command(name, args...)
			cmd.Dir = build
			cmd.Env = append(env, "GOPROXY="+proxy)
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: %w\n%s", what, err, out)
			}
			return nil
		}
	}
	// Online: the build's own modules come into the cache, as building goaccel fetches its own.
	online := run("file://" + filepath.ToSlash(proxy))
	if err := online("go mod download", gotool, "mod", "download", "example.com/dep"); err != nil {
		t.Fatal(err)
	}
	if err := online("go build", gotool, "build", "-mod=mod", "-o", os.DevNull, "."); err != nil {
		t.Fatal(err)
	}
	offline := run("off")
	if err := offline("go mod tidy", gotool, "mod", "tidy"); err == nil {
		t.Fatal("go mod tidy succeeded offline without the test-only module: the test no longer shows the fresh cache's failure")
	}
	if err := requireModules(offline, gotool, []string{"example.com/dep"}); err != nil {
		t.Fatalf("requireModules offline: %v", err)
	}
	if err := offline("go build", gotool, "build", "-o", os.DevNull, "."); err != nil {
		t.Fatalf("the build after requireModules: %v", err)
	}

	write(t, build, map[string]string{"main.go": "package main\n\nimport \"example.com/nothere\"\n\nfunc main() { println(nothere.Z) }\n"})
	err = requireModules(offline, gotool, []string{"example.com/nothere"})
	if err == nil || !strings.Contains(err.Error(), "example.com/nothere") {
		t.Fatalf("requireModules of a package no module provides = %v, want an error naming it", err)
	}
}

// publish writes module path at v1.0.0 into a GOPROXY=file:// folder.
func publish(t *testing.T, proxy, path string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(proxy, path, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for name, text := range files {
		w, err := z.Create(path + "@v1.0.0/" + name)
		if err == nil {
			_, err = w.Write([]byte(text))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{
		"list":        "v1.0.0\n",
		"v1.0.0.info": `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`,
		"v1.0.0.mod":  files["go.mod"],
	})
}

// write writes files (name: text) under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
