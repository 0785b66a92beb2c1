package session

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/syncbuf"
)

// corpusProgram is a program of testdata/corpus and what it printed built
// by the Go toolchain.
type corpusProgram struct {
	name           string // source/name
	src            string
	stdout, stderr string
}

// corpusOutcome is what a program printed run as cells.
type corpusOutcome struct {
	stdout, stderr string
	err            *Error // the first cell error, if any
}

// TestCorpusRunsAsGo runs the programs of testdata/corpus (real Go programs
// written for other purposes: Go by Example, Go's test/ken, go doc
// examples, A Tour of Go, The Go Blog and go.dev's documentation, Rosetta
// Code; README.md there) in fresh sessions, as the two cells a notebook
// user writes (the declarations, then main's body) and as one cell holding
// the whole program, and compares what each prints, on stdout and on
// stderr, with what the program prints built by the go command and run in
// the same way (sameOutput: addresses aside). At least 98% must print the
// same, and the others must end with an error naming what the interpreter
// does not support: never a different output.
func TestCorpusRunsAsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs 274 programs")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	progs := loadCorpus(t)
	// GOACCEL_CORPUS=regexp runs only the programs whose names match (while
	// working on one; the share is then not checked).
	only := os.Getenv("GOACCEL_CORPUS")
	if only != "" {
		re := regexp.MustCompile(only)
		progs = slices.DeleteFunc(progs, func(p corpusProgram) bool { return !re.MatchString(p.name) })
	}
	for _, mode := range []string{"cells", "whole"} {
		t.Run(mode, func(t *testing.T) {
			var same, refused []string
			var different []string
			for _, p := range progs {
				var cells []string
				if mode == "cells" {
					decls, body, err := splitProgram(p.src)
					if err != nil {
						t.Fatalf("%s: %v", p.name, err)
					}
					cells = []string{decls, body}
				} else {
					cells = []string{wholeProgram(p.src)}
				}
				o := runCorpusCells(t, p.name, cells)
				switch {
				case o.err == nil && sameOutput(p.stdout, o.stdout) && sameOutput(p.stderr, o.stderr):
					same = append(same, p.name)
				case o.err != nil && namesUnsupported(o.err):
					refused = append(refused, fmt.Sprintf("%s: %s: %s", p.name, o.err.Ename, o.err.Evalue))
				default:
					different = append(different, describeDifference(p, o))
				}
			}
			t.Logf("%s: %d/%d identical (%.1f%%), %d refused with an error naming the construct, %d different",
				mode, len(same), len(progs), 100*float64(len(same))/float64(len(progs)), len(refused), len(different))
			for _, r := range refused {
				t.Logf("refused: %s", r)
			}
			for _, d := range different {
				t.Errorf("different: %s", d)
			}
			if only == "" && float64(len(same)) < 0.98*float64(len(progs)) {
				t.Errorf("%d/%d identical, want at least 98%%", len(same), len(progs))
			}
		})
	}
}

// namesUnsupported reports whether a cell's error says the interpreter does
// not support what the code does, naming it (not a crash, not the
// program's own failure).
func namesUnsupported(e *Error) bool {
	switch e.Ename {
	case "UnsupportedError":
		return true
	case "CompileError", "InterpreterError":
		return strings.Contains(e.Evalue, "is not supported") || strings.Contains(e.Evalue, "cannot run")
	}
	return false
}

func describeDifference(p corpusProgram, o corpusOutcome) string {
	var b strings.Builder
	b.WriteString(p.name)
	if o.err != nil {
		fmt.Fprintf(&b, ": error %s: %s", o.err.Ename, o.err.Evalue)
	}
	for _, s := range []struct{ what, want, got string }{{"stdout", p.stdout, o.stdout}, {"stderr", p.stderr, o.stderr}} {
		if !sameOutput(s.want, s.got) {
			fmt.Fprintf(&b, "\n%s: %s", s.what, firstDifference(normalPointers(s.want), normalPointers(s.got)))
		}
	}
	return b.String()
}

// firstDifference shows the first line where got departs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

// runCorpusCells runs cells in a fresh session, each in a working directory
// of its own, as the compiled program runs.
func runCorpusCells(t *testing.T, name string, cells []string) corpusOutcome {
	t.Helper()
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	// A fresh notebook is a fresh process: flags of an earlier program are
	// gone; and stdin is empty, as the compiled program's (/dev/null).
	testFlags := flag.CommandLine
	flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	defer func() { flag.CommandLine = testFlags }()
	var stdout, stderr syncbuf.Buffer
	s, err := New(Options{Stdout: &stdout, Stderr: &stderr, Dir: dir, Stdin: strings.NewReader("")})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var o corpusOutcome
	for _, c := range cells {
		// The limit catches a program that hangs, not a slow one: Go's test/ken divconst and
		// modconst take about 45 s of CPU in the interpreter alone, and their wall time grows with
		// whatever else the machine runs (60 s was passed at a load average of 12).
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		r := s.Execute(ctx, c)
		cancel()
		if r.Error != nil {
			o.err = r.Error
			break
		}
	}
	o.stdout, o.stderr = stdout.String(), stderr.String()
	return o
}

// loadCorpus reads testdata/corpus/*/*.go and runs each program built by
// the go command.
func loadCorpus(t *testing.T) []corpusProgram {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	sort.Strings(files)
	var progs []corpusProgram
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".go")
		progs = append(progs, corpusProgram{name: name, src: string(src)})
	}
	runWithGo(t, progs)
	return progs
}

// runWithGo builds progs with the go command (one go build of them all) and
// runs each in a directory of its own, recording what it printed.
func runWithGo(t *testing.T, progs []corpusProgram) {
	t.Helper()
	build := t.TempDir()
	if err := os.WriteFile(filepath.Join(build, "go.mod"), []byte("module corpus\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range progs {
		dir := filepath.Join(build, binName(p.name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(p.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(build, "bin")
	cmd := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./...")
	cmd.Dir = build
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the programs: %v\n%s", err, out)
	}
	for i := range progs {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(filepath.Join(bin, binName(progs[i].name)))
		cmd.Dir = t.TempDir()
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s built by go: %v\n%s", progs[i].name, err, stderr.Bytes())
		}
		progs[i].stdout, progs[i].stderr = stdout.String(), stderr.String()
	}
}

// pointerRE matches what fmt prints for an address (%p, %v of a pointer, a
// function or a channel): a real hex number of at least 6 digits, never
// anything else.
var pointerRE = regexp.MustCompile(`0x[0-9a-f]{6,}`)

// sameOutput reports whether the interpreter's output got is what the
// compiled program printed, want, but for addresses, which differ from run
// to run; a %!verb(...) that want lacks is a difference (fmt printing a
// value it could not: the interpreter's own types showing through).
func sameOutput(want, got string) bool {
	if strings.Count(got, "%!") > strings.Count(want, "%!") {
		return false
	}
	return normalPointers(want) == normalPointers(got)
}

// normalPointers is s with every address written 0x….
func normalPointers(s string) string { return pointerRE.ReplaceAllString(s, "0x…") }

func binName(name string) string { return "p_" + strings.NewReplacer("/", "_", "-", "_").Replace(name) }

// splitProgram cuts a program into the cells a notebook user writes: its
// imports and declarations but main, in their order with their comments,
// then the body of main, one tab less indented.
func splitProgram(src string) (decls, body string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		return "", "", err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	last := off(f.Name.End())
	var b strings.Builder
	found := false
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" {
			continue
		}
		start := off(fd.Pos())
		if fd.Doc != nil {
			start = off(fd.Doc.Pos())
		}
		b.WriteString(src[last:start])
		last = off(fd.End())
		lines := strings.Split(src[off(fd.Body.Lbrace)+1:off(fd.Body.Rbrace)], "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, "\t")
		}
		body, found = strings.TrimSpace(strings.Join(lines, "\n")), true
	}
	if !found {
		return "", "", fmt.Errorf("no func main")
	}
	b.WriteString(src[last:])
	return strings.TrimSpace(b.String()), body, nil
}

// wholeProgram is the program as one cell: all of it but the package clause.
func wholeProgram(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.PackageClauseOnly)
	if err != nil {
		return src
	}
	return strings.TrimSpace(src[fset.Position(f.Name.End()).Offset:])
}

// The comparison forgives addresses only: real hex numbers of six digits or
// more, never what fmt writes for a value it could not print.
func TestSameOutputForgivesOnlyAddresses(t *testing.T) {
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"pointer: 0xc000012345\n", "pointer: 0x2f51a9de8040\n", true},
		{"&{1 2} 0xc000012345 (*main.T)(0xc000100000)", "&{1 2} 0x7f00aa (*main.T)(0x1234567)", true},
		{"pointer: 0xc000012345\n", "pointer: %!p(interp.printable={0x2f51a9de8040 0x2f51a9de8050 {0x2f51a9de8060 0x2f51a9de8070 406}})\n", false},
		{"%!p(main.T={1})", "%!p(struct { X int }={1})", false},
		{"0xff", "0xfe", false},
		{"x: 0x1f", "x: 0x20", false},
		{"a %!d(string=x)", "a %!d(string=x)", true},
		{"a", "a %!d(string=x)", false},
	} {
		if got := sameOutput(c.want, c.got); got != c.same {
			t.Errorf("sameOutput(%q, %q) = %v, want %v", c.want, c.got, got, c.same)
		}
	}
}
