package celllaunch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/program"
)

func TestFindModuleUsesTheSourceThisBinaryWasBuiltFrom(t *testing.T) {
	m, err := findModule()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "internal", "celllaunch", "module.go")); err != nil || m.Version != "" || m.GoVersion == "" {
		t.Errorf("findModule = %+v, %v; want this checkout, no release version", m, err)
	}
	t.Setenv(EnvSource, t.TempDir())
	if _, err := findModule(); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("findModule with %s at an empty folder = %v; want an error", EnvSource, err)
	}
}

func TestGoModRequiresAReleaseOrReplacesWithTheCheckout(t *testing.T) {
	release := goaccelModule{Dir: "/cache/github.com/goaccel/goaccel@v1.2.0", Version: "v1.2.0", GoVersion: "1.26"}
	if got := release.goMod("notebook.local/job", "An export", false); !strings.Contains(got, "require github.com/goaccel/goaccel v1.2.0") || strings.Contains(got, "replace") {
		t.Errorf("exported go.mod of a release:\n%s", got)
	}
	if got := release.goMod("w", "A worker", true); !strings.Contains(got, "replace github.com/goaccel/goaccel => /cache/github.com/goaccel/goaccel@v1.2.0") {
		t.Errorf("worker go.mod of a release:\n%s", got)
	}
	checkout := goaccelModule{Dir: "/src/goaccel", GoVersion: "1.26.8"}
	got := checkout.goMod("notebook.local/job", "An export", false)
	for _, want := range []string{"module notebook.local/job", "go 1.26.8", "replace github.com/goaccel/goaccel => /src/goaccel", "on another machine"} {
		if !strings.Contains(got, want) {
			t.Errorf("go.mod of a checkout lacks %q:\n%s", want, got)
		}
	}
}

func TestCacheKeyFollowsTheProgram(t *testing.T) {
	a := cacheKey(map[string][]byte{"notebook.go": []byte("package main"), "go.mod": []byte("module m")})
	b := cacheKey(map[string][]byte{"notebook.go": []byte("package main "), "go.mod": []byte("module m")})
	if a == b || a != cacheKey(map[string][]byte{"go.mod": []byte("module m"), "notebook.go": []byte("package main")}) {
		t.Errorf("cache keys: %s %s; want them to differ with the content and only with it", a, b)
	}
}

func TestCompileErrorsOfGoBuildComeBackAtCells(t *testing.T) {
	r := program.NewRecord()
	r.Define(program.Decl{Kind: "func", Names: []string{"f"}, Text: "func f() int {\n\treturn g()\n}", At: program.Origin{Cell: 4, Line: 2, Col: 1}})
	p, err := r.Program("f")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(p.Source[:strings.Index(p.Source, "return g")], "\n") + 1
	out := "# goaccel.notebook/worker\n./notebook.go:" + strconv.Itoa(line) + ":9: undefined: g\n"
	e := compileError(p, out)
	if len(e.Lines) != 1 || e.Lines[0] != "cell [4], line 3:9: undefined: g" || e.Where == nil || strings.TrimSpace(e.Where.Code) != "return g()" {
		t.Errorf("compileError = %+v (%+v)", e, e.Where)
	}
	var b strings.Builder
	translating{&b, p.Map}.Write([]byte("[rank 1] \t/tmp/x/notebook.go:" + strconv.Itoa(line) + " +0x1d\n"))
	if b.String() != "[rank 1] \tcell [4], line 3 +0x1d\n" {
		t.Errorf("translated output %q", b.String())
	}
}

func TestModulePathForAnExportFolder(t *testing.T) {
	for dir, want := range map[string]string{"./Train Job": "notebook.local/train-job", "/tmp/x/mnist_ddp/": "notebook.local/mnist_ddp", ".": "notebook.local/program"} {
		if got := modulePathFor(dir); got != want {
			t.Errorf("modulePathFor(%q) = %q; want %q", dir, got, want)
		}
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
	prune(root, 2)
	entries, _ := os.ReadDir(root)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != ".build-new a b" {
		t.Errorf("after prune: %v; want .build-new a b", left)
	}
}
