package magics

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

type fakeEnv struct {
	out, errOut bytes.Buffer
	ran         []string
}

func (f *fakeEnv) Stdout() io.Writer { return &f.out }
func (f *fakeEnv) Stderr() io.Writer { return &f.errOut }
func (f *fakeEnv) RunGo(_ context.Context, code string) (any, bool) {
	f.ran = append(f.ran, code)
	return "result of " + strings.TrimSpace(code), false
}
func (f *fakeEnv) Who() []string { return []string{"x int", "y string"} }
func (f *fakeEnv) Doc(s string) (string, bool) {
	if s == "strings.Split" {
		return "func Split(s, sep string) []string", true
	}
	return "", false
}

func TestParseFindsLeadingMagicsAndKeepsGoLines(t *testing.T) {
	tests := []struct {
		name   string
		cell   string
		calls  []Call
		goCode string
	}{
		{"go only", "x := 1", nil, "x := 1"},
		{"line magic", "%env A=1", []Call{{Name: "env", Args: "A=1", Line: 1}}, ""},
		{"magic then go", "%cd /tmp\nx := 1", []Call{{Name: "cd", Args: "/tmp", Line: 1}}, "\nx := 1"},
		{"shell", "!echo hi", []Call{{Name: "!", Args: "echo hi", Line: 1, Shell: true}}, ""},
		{"cell magic", "%%writefile a.txt\nline1\nline2", []Call{{Name: "writefile", Cell: true, Args: "a.txt", Body: "line1\nline2", Line: 1}}, ""},
		{"blank lines first", "\n\n%who", []Call{{Name: "who", Line: 3}}, ""},
		{"percent inside go is go", "x := 10 % 3", nil, "x := 10 % 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, goCode := Parse(tt.cell)
			if !reflect.DeepEqual(calls, tt.calls) || goCode != tt.goCode {
				t.Errorf("Parse = %+v, %q; want %+v, %q", calls, goCode, tt.calls, tt.goCode)
			}
		})
	}
}

func TestHelpQueryRecognisesSymbolQuestionMark(t *testing.T) {
	tests := []struct {
		cell, sym string
		ok        bool
	}{
		{"strings.Split?", "strings.Split", true},
		{"fmt.Println??", "fmt.Println", true},
		{"?x", "", false},
		{"x := a?", "", false},
		{"a?\nb", "", false},
	}
	for _, tt := range tests {
		sym, ok := HelpQuery(tt.cell)
		if sym != tt.sym || ok != tt.ok {
			t.Errorf("HelpQuery(%q) = %q, %v", tt.cell, sym, ok)
		}
	}
}

func TestUnknownMagicListsKnownOnes(t *testing.T) {
	r := NewRegistry()
	_, err := r.Run(context.Background(), Call{Name: "nope"}, &fakeEnv{})
	if err == nil || !strings.Contains(err.Error(), "unknown magic %nope") || !strings.Contains(err.Error(), "%%writefile") || !strings.Contains(err.Error(), "%time") {
		t.Fatalf("err = %v", err)
	}
}

func TestRegisterAddsAMagicAndRefusesDuplicates(t *testing.T) {
	r := NewRegistry()
	called := false
	m := Magic{Name: "custom", Usage: "%custom ARGS", Help: "a magic another package adds",
		Run: func(context.Context, Call, Env) (Output, error) { called = true; return Output{}, nil }}
	if err := r.Register(m); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(m); err == nil {
		t.Error("second Register of the same name: want an error")
	}
	if _, err := r.Run(context.Background(), Call{Name: "custom", Args: "x"}, &fakeEnv{}); err != nil || !called {
		t.Errorf("Run registered magic: err %v, called %v", err, called)
	}
}

func TestBasicMagics(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	tests := []struct {
		name    string
		call    Call
		wantOut string
		wantErr string
		check   func(t *testing.T, f *fakeEnv, o Output)
	}{
		{name: "env set", call: Call{Name: "env", Args: "GOACCEL_T=42"}, wantOut: "env: GOACCEL_T=42\n",
			check: func(t *testing.T, _ *fakeEnv, _ Output) {
				if os.Getenv("GOACCEL_T") != "42" {
					t.Error("variable not set in the process")
				}
			}},
		{name: "env get", call: Call{Name: "env", Args: "GOACCEL_T"}, wantOut: "42\n"},
		{name: "env unset var", call: Call{Name: "env", Args: "GOACCEL_NOPE_X"}, wantErr: "GOACCEL_NOPE_X is not set"},
		{name: "cd", call: Call{Name: "cd", Args: dir}, check: func(t *testing.T, f *fakeEnv, _ Output) {
			got, _ := os.Getwd()
			if r, _ := filepath.EvalSymlinks(dir); got != r && got != dir {
				t.Errorf("cwd %s, want %s", got, dir)
			}
		}},
		{name: "cd missing dir", call: Call{Name: "cd", Args: filepath.Join(dir, "missing")}, wantErr: "no such file"},
		{name: "writefile", call: Call{Name: "writefile", Cell: true, Args: "a.txt", Body: "hello"}, wantOut: "Writing a.txt\n",
			check: func(t *testing.T, _ *fakeEnv, _ Output) {
				b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
				if string(b) != "hello\n" {
					t.Errorf("file holds %q", b)
				}
			}},
		{name: "writefile append", call: Call{Name: "writefile", Cell: true, Args: "-a a.txt", Body: "more\n"}, wantOut: "Appending to a.txt\n",
			check: func(t *testing.T, _ *fakeEnv, _ Output) {
				b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
				if string(b) != "hello\nmore\n" {
					t.Errorf("file holds %q", b)
				}
			}},
		{name: "writefile without name", call: Call{Name: "writefile", Cell: true}, wantErr: "needs one file name"},
		{name: "time line", call: Call{Name: "time", Args: "f(3)"}, check: func(t *testing.T, f *fakeEnv, o Output) {
			if !strings.HasPrefix(f.out.String(), "Wall time: ") || o.Result != "result of f(3)" {
				t.Errorf("out %q, result %v", f.out.String(), o.Result)
			}
		}},
		{name: "time cell keeps lines", call: Call{Name: "time", Cell: true, Body: "x := 1", Line: 1}, check: func(t *testing.T, f *fakeEnv, _ Output) {
			if f.ran[0] != "\nx := 1" {
				t.Errorf("ran %q", f.ran[0])
			}
		}},
		{name: "who", call: Call{Name: "who"}, wantOut: "x int\ny string\n"},
		{name: "doc", call: Call{Name: "doc", Args: "strings.Split"}, check: func(t *testing.T, _ *fakeEnv, o Output) {
			if !strings.Contains(o.Page, "func Split") {
				t.Errorf("page %q", o.Page)
			}
		}},
		{name: "doc unknown", call: Call{Name: "doc", Args: "nope.Nope"}, wantErr: "no documentation found for nope.Nope"},
		{name: "help", call: Call{Name: "help"}, check: func(t *testing.T, f *fakeEnv, _ Output) {
			for _, m := range []string{"%env", "%cd", "%time", "%%time", "%who", "%%writefile", "!command"} {
				if !strings.Contains(f.out.String(), m) {
					t.Errorf("help lacks %s", m)
				}
			}
		}},
		{name: "shell", call: Call{Name: "!", Shell: true, Args: "echo out; echo err >&2"}, check: func(t *testing.T, f *fakeEnv, _ Output) {
			if f.out.String() != "out\n" || f.errOut.String() != "err\n" {
				t.Errorf("stdout %q stderr %q", f.out.String(), f.errOut.String())
			}
		}},
	}
	r := NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeEnv{}
			o, err := r.Run(context.Background(), tt.call, f)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantOut != "" && f.out.String() != tt.wantOut {
				t.Errorf("stdout %q, want %q", f.out.String(), tt.wantOut)
			}
			if tt.check != nil {
				tt.check(t, f, o)
			}
		})
	}
}

func TestShellCommandStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := NewRegistry().Run(ctx, Call{Name: "!", Shell: true, Args: "sleep 30; echo late"}, &fakeEnv{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
}
