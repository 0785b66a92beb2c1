package derive

import (
	"errors"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/gobuild"
)

func TestSpecWithSortsAndDeduplicatesSoEqualSetsShareABuild(t *testing.T) {
	base := Spec{Base: "/bin/goaccel", Identity: "id", Packages: []string{"b/pkg"}, Modules: []gobuild.Require{{Path: "m", Version: "v1.0.0"}}}
	got := base.With([]string{"a/pkg", "b/pkg"}, []gobuild.Require{{Path: "m", Version: "v1.2.0"}, {Path: "local", Dir: "/src/local"}})
	want := Spec{Base: "/bin/goaccel", Identity: "id", Packages: []string{"a/pkg", "b/pkg"},
		Modules: []gobuild.Require{{Path: "local", Dir: "/src/local"}, {Path: "m", Version: "v1.2.0"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("With = %+v; want %+v", got, want)
	}
	if !got.Has("a/pkg") || got.Has("c/pkg") {
		t.Errorf("Has is wrong for %v", got.Packages)
	}
	if len(base.Packages) != 1 {
		t.Errorf("With changed its receiver: %v", base.Packages)
	}
	if cmd := got.Command("/cache/executor"); !reflect.DeepEqual(cmd, []string{"/cache/executor", ExecutorCommand, "/bin/goaccel"}) {
		t.Errorf("Command = %v", cmd)
	}
}

func TestParsePin(t *testing.T) {
	tests := []struct {
		arg  string
		want gobuild.Require
		err  string
	}{
		{arg: "github.com/google/uuid@v1.6.0", want: gobuild.Require{Path: "github.com/google/uuid", Version: "v1.6.0"}},
		{arg: "golang.org/x/text@latest", want: gobuild.Require{Path: "golang.org/x/text", Version: "latest"}},
		{arg: "github.com/google/uuid", err: "want MODULE@VERSION"},
		{arg: "@v1.0.0", err: "want MODULE@VERSION"},
		{arg: "github.com/google/uuid@", err: "want MODULE@VERSION"},
	}
	for _, tt := range tests {
		got, err := ParsePin(tt.arg)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParsePin(%q) error %v; want %q", tt.arg, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParsePin(%q) = %+v, %v; want %+v", tt.arg, got, err, tt.want)
		}
	}
}

func TestLocalModuleReadsItsPathAndSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("// my library\nmodule example.com/mine\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LocalModule(dir)
	if err != nil || got != (gobuild.Require{Path: "example.com/mine", Dir: dir}) {
		t.Errorf("LocalModule = %+v, %v", got, err)
	}
	if _, err := LocalModule(t.TempDir()); err == nil || !strings.Contains(err.Error(), "go mod init") {
		t.Errorf("LocalModule of a folder without go.mod: %v; want advice to go mod init", err)
	}
}

func TestExplainNamesThePackageNoModuleProvides(t *testing.T) {
	tidy := errors.New("go: finding module for package no.such/pkg\ngo: m imports\n\tno.such/pkg: module no.such/pkg: 404 Not Found")
	err := explain(tidy, []string{"github.com/google/uuid", "no.such/pkg"})
	if msg := err.Error(); !strings.Contains(msg, "cannot find a module providing no.such/pkg (") || !strings.Contains(msg, "%go mod use DIR") {
		t.Errorf("explain = %q", msg)
	}
	if !errors.Is(err, tidy) {
		t.Error("explain does not wrap the go command's error")
	}
}

func TestImportsAndMainSources(t *testing.T) {
	if got := importsSource([]string{"a/b", "c"}); got != "package main\n\nimport (\n\t_ \"a/b\"\n\t_ \"c\"\n)\n" {
		t.Errorf("importsSource = %q", got)
	}
	got := mainSource(`{"identity":"x"}`)
	if !strings.Contains(got, `process.RunDerivedExecutor("{\"identity\":\"x\"}", Symbols)`) ||
		!strings.Contains(got, `"github.com/goaccel/goaccel/kernel/process"`) {
		t.Errorf("mainSource:\n%s", got)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", got, 0); err != nil {
		t.Errorf("mainSource does not parse: %v", err)
	}
}
