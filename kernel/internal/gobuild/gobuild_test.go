package gobuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFindModuleUsesTheSourceThisBinaryWasBuiltFrom(t *testing.T) {
	m, err := FindModule()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "kernel", "internal", "gobuild", "module.go")); err != nil || m.Version != "" || m.GoVersion == "" {
		t.Errorf("FindModule = %+v, %v; want this checkout, no release version", m, err)
	}
	t.Setenv(EnvSource, t.TempDir())
	if _, err := FindModule(); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("FindModule with %s at an empty folder = %v; want an error", EnvSource, err)
	}
}

func TestCacheKeyFollowsTheProgram(t *testing.T) {
	a := Key("", map[string][]byte{"notebook.go": []byte("package main"), "go.mod": []byte("module m")})
	b := Key("", map[string][]byte{"notebook.go": []byte("package main "), "go.mod": []byte("module m")})
	if a == b || a != Key("", map[string][]byte{"go.mod": []byte("module m"), "notebook.go": []byte("package main")}) {
		t.Errorf("cache keys: %s %s; want them to differ with the content and only with it", a, b)
	}
}

func TestPruneKeepsTheMostRecentlyUsedBuilds(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	for i, name := range []string{"a", "b", "c", ".build-old", ".build-new"} {
		if err := os.Mkdir(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		age := time.Duration(i) * time.Minute
		if name == ".build-old" {
			age = 2 * time.Hour
		}
		os.Chtimes(filepath.Join(root, name), now.Add(-age), now.Add(-age))
	}
	(&Cache{root: root, keep: 2}).prune()
	entries, _ := os.ReadDir(root)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != ".build-new a b" {
		t.Errorf("after prune: %v; want .build-new a b", left)
	}
}

func TestCacheBuildsOnceAndFindsTheBuild(t *testing.T) {
	t.Setenv(EnvCache, t.TempDir())
	c, err := OpenCache("things", 4)
	if err != nil {
		t.Fatal(err)
	}
	key := Key("", map[string][]byte{"a": []byte("1")})
	if _, ok := c.Lookup(key, "out"); ok {
		t.Fatal("Lookup found a build before Build")
	}
	builds := 0
	build := func(dir string) error { builds++; return os.WriteFile(filepath.Join(dir, "out"), []byte("x"), 0o644) }
	dir, err := c.Build(key, build)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Lookup(key, "out"); !ok || got != dir || builds != 1 {
		t.Errorf("Lookup after Build = %q, %v (built %d times); want %q", got, ok, builds, dir)
	}
	if key == Key("", map[string][]byte{"a": []byte("2")}) {
		t.Error("Key does not follow the content")
	}
}

func TestEnvKeepsTheUsersGoflags(t *testing.T) {
	t.Setenv("GOFLAGS", "-tags=netgo")
	env := Env()
	if got := env[len(env)-1]; got != "GOFLAGS=-tags=netgo -mod=mod" {
		t.Errorf("GOFLAGS = %q; want the user's flags and -mod=mod", got)
	}
}
