package gobuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// fakeGoaccel writes a goaccel module folder with the given go.mod body
// (after its module and go lines) and go.sum, and the folders named.
func fakeGoaccel(t *testing.T, body, sum string, folders ...string) Module {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+modulePath+"\n\ngo 1.26\n\n"+body)
	write("go.sum", sum)
	for _, f := range folders {
		write(filepath.Join(f, "go.mod"), "module copy\n")
	}
	m, err := moduleAt(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const fakeGoMod = `require (
	example.com/plot v1.2.0
	example.com/unlinked v1.0.0 // indirect
)

require example.com/sys v0.5.0

replace (
	example.com/interp => ./third_party/interp
	example.com/zmq v0.17.0 => ./third_party/zmq // a patched copy
)
`

func TestGoModRequiresTheModulesTheBinaryWasBuiltWith(t *testing.T) {
	m := fakeGoaccel(t, fakeGoMod, "", "third_party/interp", "third_party/zmq")
	dep := func(path, version string) *debug.Module { return &debug.Module{Path: path, Version: version} }
	replaced := func(path, version, to string) *debug.Module {
		return &debug.Module{Path: path, Version: version, Replace: &debug.Module{Path: to, Version: "(devel)"}}
	}
	tests := []struct {
		name      string
		bi        *debug.BuildInfo
		reqs      []Require
		want, not []string
	}{
		{
			name: "goaccel's binary",
			bi: &debug.BuildInfo{Main: debug.Module{Path: modulePath}, Deps: []*debug.Module{
				dep("example.com/plot", "v1.1.0"), // goaccel's go.mod asks for more since: the build takes that
				dep("example.com/sys", "v0.6.0"),
				replaced("example.com/interp", "v0.16.1", "./third_party/interp"),
			}},
			want: []string{
				"module notebook.local/job\n\ngo 1.26\n",
				"require " + modulePath + " " + noVersion + "\n",
				"\texample.com/plot v1.2.0\n", "\texample.com/sys v0.6.0\n", "\texample.com/interp v0.16.1\n",
				"\t" + modulePath + " => " + m.Dir + "\n",
				"\texample.com/interp => " + filepath.Join(m.Dir, "third_party/interp") + "\n",
				"\texample.com/zmq => " + filepath.Join(m.Dir, "third_party/zmq") + "\n",
			},
			not: []string{"example.com/unlinked", "\texample.com/plot v1.1.0"},
		},
		{
			name: "a derived executor",
			bi: &debug.BuildInfo{Main: debug.Module{Path: "github.com/goaccel/goaccel/derived_executor"}, Deps: []*debug.Module{
				replaced(modulePath, noVersion, "/elsewhere/goaccel"),
				dep("example.com/plot", "v1.2.0"),
				dep("github.com/google/uuid", "v1.6.0"),
				replaced("example.com/mine", noVersion, "/home/me/mine"),
				{Path: "example.com/fork", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/fork2", Version: "v1.0.1"}},
			}},
			want: []string{
				"\tgithub.com/google/uuid v1.6.0\n", "\texample.com/mine " + noVersion + "\n",
				"\texample.com/mine => /home/me/mine\n", "\t" + modulePath + " => " + m.Dir + "\n",
				"\texample.com/fork => example.com/fork2 v1.0.1\n",
			},
			not: []string{"/elsewhere", "(devel)"},
		},
		{
			name: "no build information",
			want: []string{"\texample.com/plot v1.2.0\n", "\texample.com/unlinked v1.0.0\n", "\texample.com/sys v0.5.0\n"},
		},
		{
			name: "the session's modules",
			bi:   &debug.BuildInfo{Main: debug.Module{Path: modulePath}, Deps: []*debug.Module{dep("example.com/sys", "v0.5.0")}},
			reqs: []Require{{Path: "github.com/google/uuid", Version: "v1.6.0"}, {Path: "example.com/mine", Dir: "/home/me/mine"}},
			want: []string{"\tgithub.com/google/uuid v1.6.0\n", "\texample.com/mine " + noVersion + "\n", "\texample.com/mine => /home/me/mine\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := m.goMod("notebook.local/job", "An export", tt.reqs, tt.bi)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("go.mod lacks %q:\n%s", want, got)
				}
			}
			for _, not := range tt.not {
				if strings.Contains(got, not) {
					t.Errorf("go.mod has %q:\n%s", not, got)
				}
			}
		})
	}
}

func TestGoModSaysWhyItCannotPointAtGoaccelsCopies(t *testing.T) {
	tests := []struct {
		name   string
		copies []string
		bi     *debug.BuildInfo
		want   string
	}{
		// A module download of goaccel leaves out third_party's copies
		// (each is a module of its own).
		{"a copy is missing", []string{"third_party/interp"}, nil, "lacks (a module download leaves such folders out): set GOACCEL_SOURCE"},
		{"a relative folder goaccel's go.mod does not name", []string{"third_party/interp", "third_party/zmq"},
			&debug.BuildInfo{Deps: []*debug.Module{{Path: "example.com/other", Version: "v1.0.0", Replace: &debug.Module{Path: "../other"}}}},
			"example.com/other replaced by the folder ../other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fakeGoaccel(t, fakeGoMod, "", tt.copies...)
			if _, err := m.goMod("x", "A test", nil, tt.bi); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("goMod = %v; want an error with %q", err, tt.want)
			}
		})
	}
}

func TestGoSumHoldsGoaccelsTheBuildsAndTheLinkedModulesChecksums(t *testing.T) {
	m := fakeGoaccel(t, "", "example.com/plot v1.2.0 h1:plot=\nexample.com/plot v1.2.0/go.mod h1:plotmod=\n")
	derived := t.TempDir()
	os.WriteFile(filepath.Join(derived, "go.mod"), []byte("module example.com/derived\n"), 0o644)
	os.WriteFile(filepath.Join(derived, "go.sum"), []byte("github.com/google/uuid v1.6.0/go.mod h1:uuidmod=\n"), 0o644)
	deps := []*debug.Module{
		{Path: "github.com/google/uuid", Version: "v1.6.0", Sum: "h1:uuid="},
		{Path: "example.com/fork", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/fork2", Version: "v1.0.1", Sum: "h1:fork2="}},
	}
	tests := []struct {
		name      string
		main      string
		want, not []string
	}{
		{"a derived executor", "example.com/derived", []string{
			"example.com/plot v1.2.0 h1:plot=", "example.com/plot v1.2.0/go.mod h1:plotmod=", "github.com/google/uuid v1.6.0 h1:uuid=",
			"github.com/google/uuid v1.6.0/go.mod h1:uuidmod=", "example.com/fork2 v1.0.1 h1:fork2=",
		}, nil},
		// The go.sum beside the executable is not this binary's build's.
		{"goaccel", modulePath, []string{"example.com/plot v1.2.0 h1:plot=", "github.com/google/uuid v1.6.0 h1:uuid="}, []string{"h1:uuidmod="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(m.goSum(&debug.BuildInfo{Main: debug.Module{Path: tt.main}, Deps: deps}, derived))
			for _, want := range tt.want {
				if !strings.Contains(got, want+"\n") {
					t.Errorf("go.sum lacks %q:\n%s", want, got)
				}
			}
			for _, not := range tt.not {
				if strings.Contains(got, not) {
					t.Errorf("go.sum has %q:\n%s", not, got)
				}
			}
		})
	}
}

func TestParseGoModReadsDirectivesSingleAndInBlocks(t *testing.T) {
	f := parseGoMod("module \"example.com/m\"\n\ngo 1.26.8\n\n" + fakeGoMod)
	if f.module != "example.com/m" || f.goVersion != "1.26.8" {
		t.Errorf("module %q go %q", f.module, f.goVersion)
	}
	for path, want := range map[string]string{"example.com/plot": "v1.2.0", "example.com/unlinked": "v1.0.0", "example.com/sys": "v0.5.0"} {
		if f.requires[path] != want {
			t.Errorf("requires[%s] = %q; want %q", path, f.requires[path], want)
		}
	}
	for path, want := range map[string]string{"example.com/interp": "./third_party/interp", "example.com/zmq": "./third_party/zmq"} {
		if f.replaces[path] != want {
			t.Errorf("replaces[%s] = %q; want %q", path, f.replaces[path], want)
		}
	}
}

func TestOlder(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"v1.3.0", "v1.6.0", true}, {"v1.6.0", "v1.3.0", false}, {"v1.6.0", "v1.6.0", false},
		{"v1.10.0", "v1.9.0", false}, {"v0.9.9", "v1.0.0", true}, {"v1.6.0-rc1", "v1.6.0", true},
	} {
		if got := Older(tt.a, tt.b); got != tt.want {
			t.Errorf("Older(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}

// A program built against this checkout with GoMod and GoSum builds with
// plain go build and no network: no -mod=mod, no GOPROXY, nothing in the
// go.mod left for `go mod tidy` to add.
func TestAProgramBuiltAgainstGoaccelBuildsOfflineWithPlainGoBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	m, err := FindModule()
	if err != nil {
		t.Fatal(err)
	}
	goMod, err := m.GoMod("example.com/offline", "A test", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err = WriteFiles(dir, map[string][]byte{
		"go.mod": []byte(goMod),
		"go.sum": m.GoSum(),
		// plots needs gonum/plot and its modules; the launcher the
		// patched copies of goaccel's replace directives.
		"main.go": []byte("package main\n\nimport (\n\t_ \"github.com/goaccel/goaccel/notebook_launcher\"\n\t_ \"github.com/goaccel/goaccel/plots\"\n)\n\nfunc main() {}\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "program"), ".")
	cmd.Dir = dir
	cmd.Env = offlineEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s\ngo.mod:\n%s", err, out, goMod)
	}
}

// offlineEnv is the environment of a user's plain go command on a machine
// without network: no GOFLAGS (so no -mod=mod), GOPROXY off.
func offlineEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "GOPROXY=") {
			env = append(env, kv)
		}
	}
	return append(env, "GOFLAGS=", "GOPROXY=off")
}
