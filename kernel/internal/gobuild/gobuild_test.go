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

func TestGoModRequiresAReleaseOrReplacesWithTheCheckout(t *testing.T) {
	release := Module{Dir: "/cache/github.com/goaccel/goaccel@v1.2.0", Version: "v1.2.0", GoVersion: "1.26"}
	if got := release.GoMod("notebook.local/job", "An export", false, nil); !strings.Contains(got, "require github.com/goaccel/goaccel v1.2.0") || strings.Contains(got, "replace") {
		t.Errorf("exported go.mod of a release:\n%s", got)
	}
	if got := release.GoMod("w", "A worker", true, nil); !strings.Contains(got, "replace github.com/goaccel/goaccel => /cache/github.com/goaccel/goaccel@v1.2.0") {
		t.Errorf("worker go.mod of a release:\n%s", got)
	}
	checkout := Module{Dir: "/src/goaccel", GoVersion: "1.26.8"}
	got := checkout.GoMod("notebook.local/job", "An export", false, nil)
	for _, want := range []string{"module notebook.local/job", "go 1.26.8", "replace github.com/goaccel/goaccel => /src/goaccel", "on another machine"} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod of a checkout lacks %q:\n%s", want, got)
		}
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

func TestGoModRepeatsGoaccelsReplaces(t *testing.T) {
	m, err := FindModule()
	if err != nil {
		t.Fatal(err)
	}
	got := m.GoMod("x", "A test", true, nil)
	if want := "replace github.com/traefik/yaegi => " + filepath.Join(m.Dir, "third_party", "yaegi") + "\n"; !strings.Contains(got, want) {
		t.Errorf("go.mod lacks %q:\n%s", want, got)
	}
}

func TestGoModRequiresTheSessionsModules(t *testing.T) {
	m := Module{Dir: "/src/goaccel", GoVersion: "1.26"}
	got := m.GoMod("x", "A test", true, []Require{{Path: "github.com/google/uuid", Version: "v1.6.0"}, {Path: "example.com/mine", Dir: "/home/me/mine"}})
	for _, want := range []string{"require github.com/google/uuid v1.6.0\n", "require example.com/mine " + noVersion + "\nreplace example.com/mine => /home/me/mine\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, got)
		}
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
