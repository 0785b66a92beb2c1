package session

import (
	"context"
	"strings"
	"testing"
)

// A cell whose statements hold a return or a goto runs them from there on
// in a function (kernel/internal/cells/tail.go): what it prints is Go's,
// later cells see what it defined, and a panic inside it names its line.
func TestReturnAndGotoAtTheTopLevelOfACell(t *testing.T) {
	tests := []struct {
		name  string
		cells []string
		want  string // the output of every cell
		panic string // the last cell's panic, with its line ("": none)
	}{
		{"return ends the cell; the variables before it stay",
			[]string{"n := 2\nif n > 1 {\n\tfmt.Println(\"big\")\n\treturn\n}\nfmt.Println(\"small\")", "fmt.Println(n)"},
			"big\n2\n", ""},
		{"variables defined after the return are seen by later cells",
			[]string{"if false {\n\treturn\n}\nm := map[string]int{\"a\": 1}\nvar total, label = 3.5, \"t\"", "fmt.Println(m[\"a\"], total, label)"},
			"1 3.5 t\n", ""},
		{"a variable of the session defined again keeps its new value",
			[]string{"x := 1", "for i := 0; i < 3; i++ {\n\tif i == 2 {\n\t\tgoto out\n\t}\n}\nout:\nx := 10", "fmt.Println(x)"},
			"10\n", ""},
		{"a variable of the session defined again with another type",
			[]string{"x := 1", "if false {\n\treturn\n}\nx := \"s\"", "fmt.Printf(\"%T %v\\n\", x, x)"},
			"string s\n", ""},
		{"a backward goto loops",
			[]string{"i := 0\nagain:\ni++\nif i < 5 {\n\tgoto again\n}\nfmt.Println(i)"},
			"5\n", ""},
		{"a return inside a loop over a slice",
			[]string{"for _, v := range []int{1, 2, 3} {\n\tif v == 2 {\n\t\treturn\n\t}\n\tfmt.Println(v)\n}\nfmt.Println(\"not reached\")"},
			"1\n", ""},
		{"a panic after the return is reported at its line",
			[]string{"if false {\n\treturn\n}\nvar s []int\nfmt.Println(s[3])"},
			"", "line 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, out := newSession(t)
			for i, c := range tt.cells {
				r := s.Execute(context.Background(), c)
				last := i == len(tt.cells)-1
				if r.Error != nil && !(last && tt.panic != "") {
					t.Fatalf("cell %d: %v", i+1, r.Error)
				}
				if last && tt.panic != "" {
					if r.Error == nil || !strings.Contains(strings.Join(r.Error.Traceback, "\n"), tt.panic) {
						t.Fatalf("cell %d: error %v, want a panic at %s", i+1, r.Error, tt.panic)
					}
				}
			}
			if got := out.String(); got != tt.want {
				t.Errorf("output %q, want %q", got, tt.want)
			}
		})
	}
}

// A statement that gives a variable of the session another type after
// earlier statements of the cell used it runs as a second evaluation: the
// earlier ones see the old variable, later cells the new one. Where the
// cell cannot be split (a declaration in it), it is refused by name.
func TestRetypingAfterAUseSplitsTheCell(t *testing.T) {
	s, out := newSession(t)
	for _, c := range []string{"b := []float32{1, 2}", "fmt.Println(len(b), b[1])\nb := \"now a string\"\nfmt.Println(b)", "fmt.Printf(\"%T\\n\", b)"} {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("%q: %v", c, r.Error)
		}
	}
	if got, want := out.String(), "2 2\nnow a string\nstring\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	r := s.Execute(context.Background(), "fmt.Println(b)\nb := 3\nfunc f() int { return b }")
	if r.Error == nil || !strings.Contains(r.Error.Evalue, "b := … after a use of b in the same cell") {
		t.Fatalf("a cell with a declaration: error %v, want the retyping refused by name", r.Error)
	}
}

// next, stop := iter.Pull(seq) and v, ok := next() in one cell: yaegi types
// the first only when it runs, so the cell runs in two evaluations; the
// first part's deferred stop runs at the cell's end, after the second's.
func TestAPulledIteratorIsCalledInTheCellThatPulledIt(t *testing.T) {
	s, out := newSession(t)
	r := s.Execute(context.Background(), "next, stop := iter.Pull(slices.Values([]int{7, 8}))\ndefer fmt.Println(\"stopped\")\ndefer stop()\nv, ok := next()\ndefer fmt.Println(\"second part's defer\")\nfmt.Println(v, ok)")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	if got, want := out.String(), "7 true\nsecond part's defer\nstopped\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
