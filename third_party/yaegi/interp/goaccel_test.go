package interp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// goaccelCase is a program for one of goaccel's changes (README.goaccel.md
// names each): its sources, evaluated one after the other in one
// interpreter as a REPL or a notebook would, and what they print.
type goaccelCase struct {
	name    string
	srcs    []string
	opts    interp.Options
	stdout  string
	stderr  string
	evalErr string // a substring of the last evaluation's error ("": none)
	// deferred runs RunDeferred after the sources; its error must contain
	// deferredErr ("": none).
	deferred    bool
	deferredErr string
}

var goaccelCases = []goaccelCase{
	{
		name: "comma-ok defines at the top level",
		srcs: []string{
			`m := map[string]int{"a": 1}; ch := make(chan int, 1); ch <- 3; var x any = 3`,
			`v, ok := m["a"]; w, ok2 := <-ch; n, ok3 := x.(int); s, ok4 := x.(string)`,
			`println(v, ok, w, ok2, n, ok3, s == "", ok4)`,
		},
		stderr: "1 true 3 true 3 true true false\n",
	},
	{
		name:   "comma-ok package-level var",
		srcs:   []string{"package main\nimport \"fmt\"\nvar m = map[string]int{\"a\": 1}\nvar v, ok = m[\"a\"]\nvar _, missing = m[\"b\"]\nfunc main() { fmt.Println(v, ok, missing) }"},
		stdout: "1 true false\n",
	},
	{
		name:   "print and println write to stderr as the runtime formats",
		srcs:   []string{`x := 2.5; print(1, "a", x, true); print("\n"); var f32 float32 = 1.0 / 3; println(int8(-3), f32, 1e21, complex(1, 2), uintptr(255), "s", 1.0/3, -0.0, 7)`},
		stderr: "1a2.5true\n-3 0.33333334 1e+21 (1+2i) 255 s 0.3333333333333333 0 7\n",
	},
	{
		name:   "NoMain leaves main to the caller",
		opts:   interp.Options{NoMain: true},
		srcs:   []string{"package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"main\") }", `fmt.Println("later")`, `main()`},
		stdout: "later\nmain\n",
	},
	{
		name:   "top-level deferred calls run once at the end of their evaluation",
		srcs:   []string{`import "fmt"`, `defer fmt.Println("first deferred"); defer fmt.Println("second"); fmt.Println("body")`, `fmt.Println("next")`},
		stdout: "body\nsecond\nfirst deferred\nnext\n",
	},
	{
		name:     "TopLevelDefers keeps deferred calls until RunDeferred, last first",
		opts:     interp.Options{TopLevelDefers: true},
		srcs:     []string{`import "fmt"`, `x := 1; defer fmt.Println("a", x); x = 2`, `defer func() { fmt.Println("b", x) }(); fmt.Println("body")`},
		deferred: true,
		stdout:   "body\nb 2\na 1\n",
	},
	{
		name:    "TopLevelDefers: a top-level panic runs the deferred calls, which can recover it",
		opts:    interp.Options{TopLevelDefers: true},
		srcs:    []string{`import "fmt"`, `defer fmt.Println("outer")`, `defer func() { fmt.Println("recovered:", recover()) }(); fmt.Println("before"); panic("boom"); fmt.Println("not reached")`},
		stdout:  "before\nrecovered: boom\nouter\n",
		evalErr: "recovered by a deferred call",
	},
	{
		name:    "TopLevelDefers: an unrecovered top-level panic is the evaluation's error",
		opts:    interp.Options{TopLevelDefers: true},
		srcs:    []string{`import "fmt"`, `defer fmt.Println("deferred"); panic("boom")`},
		stdout:  "deferred\n",
		stderr:  "1:34: panic: main(...)\n",
		evalErr: "boom",
	},
	{
		name:     "RunDeferred: a panic in a deferred call is recovered by a later one",
		opts:     interp.Options{TopLevelDefers: true},
		srcs:     []string{`import "fmt"`, `defer func() { fmt.Println("got", recover()) }(); defer func() { panic("in defer") }(); fmt.Println(recover())`},
		deferred: true,
		stdout:   "<nil>\ngot in defer\n",
		stderr:   "1:93: panic: main.func(...)\n",
	},
	{
		name:   "a deferred call's arguments are evaluated by the defer statement",
		srcs:   []string{"package main\nimport \"fmt\"\nfunc show(a int) { fmt.Println(\"show\", a) }\nfunc main() {\n\tx := 1\n\tdefer fmt.Println(\"compiled\", x)\n\tdefer show(x)\n\tdefer println(\"builtin\", x)\n\ts := []int{1}\n\tdefer fmt.Println(s[0], len(s))\n\tx = 2\n\ts[0] = 5\n}"},
		stdout: "1 1\nshow 1\ncompiled 1\n",
		stderr: "builtin 1\n",
	},
	{
		name:   "a function literal passed to compiled code captures this iteration's variables",
		srcs:   []string{"package main\nimport (\"fmt\"; \"sort\"; \"sync\")\nfunc main() {\n\tvar wg sync.WaitGroup\n\tvar mu sync.Mutex\n\tvar got []int\n\tfor i := 0; i < 3; i++ {\n\t\tj := i\n\t\twg.Add(1)\n\t\tgo func(f func()) { f(); wg.Done() }(func() { mu.Lock(); got = append(got, j); mu.Unlock() })\n\t}\n\twg.Wait()\n\tsort.Ints(got)\n\tfmt.Println(got)\n}"},
		stdout: "[0 1 2]\n",
	},
}

func TestGoaccelChanges(t *testing.T) {
	for _, c := range goaccelCases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			opts := c.opts
			opts.Stdout, opts.Stderr = &stdout, &stderr
			i := interp.New(opts)
			if err := i.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			var err error
			for _, src := range c.srcs {
				if _, err = i.Eval(src); err != nil {
					break
				}
			}
			if err == nil && c.deferred {
				derr := i.RunDeferred()
				switch {
				case c.deferredErr == "" && derr != nil:
					t.Fatalf("RunDeferred: %v", derr)
				case c.deferredErr != "" && (derr == nil || !strings.Contains(derr.Error(), c.deferredErr)):
					t.Fatalf("RunDeferred error %v, want one containing %q", derr, c.deferredErr)
				}
			}
			switch {
			case c.evalErr == "" && err != nil:
				t.Fatalf("eval: %v", err)
			case c.evalErr != "" && (err == nil || !strings.Contains(err.Error(), c.evalErr)):
				t.Fatalf("eval error %v, want one containing %q", err, c.evalErr)
			}
			if stdout.String() != c.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), c.stdout)
			}
			if stderr.String() != c.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), c.stderr)
			}
		})
	}
}
