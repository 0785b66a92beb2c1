package cells

import (
	"errors"
	"go/types"
	"reflect"
	"strings"
	"testing"
)

type unitWant struct {
	kind Kind
	text string
	line int
}

func units(p *Program) []unitWant {
	var out []unitWant
	for _, u := range p.Units {
		out = append(out, unitWant{u.Kind, u.Text, u.Line})
	}
	return out
}

func TestParseSplitsMixedDeclarationsAndStatementsInOrder(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []unitWant
	}{
		{"expression only", "1 + 2", []unitWant{{KindExpr, "1 + 2", 1}}},
		{"func then call", "func f() int { return 1 }\nf()",
			[]unitWant{{KindDecl, "func f() int { return 1 }", 1}, {KindExpr, "f()", 2}}},
		{"statements then decl then statements", "x := 1\ny := 2\nfunc g() {}\ng()\nz := 3",
			[]unitWant{{KindStmt, "x := 1\ny := 2", 1}, {KindDecl, "func g() {}", 3}, {KindStmt, "g()\nz := 3", 4}}},
		{"imports move first", "x := 1\nimport \"os\"\nos.Getpid()",
			[]unitWant{{KindImport, `import ("os")`, 1}, {KindStmt, "x := 1", 1}, {KindExpr, "os.Getpid()", 3}}},
		{"semicolons on one line", "a := 1; b := 2; a + b",
			[]unitWant{{KindStmt, "a := 1; b := 2", 1}, {KindExpr, "a + b", 1}}},
		{"func literal call is a statement", "func() { x = 2 }()\nx",
			[]unitWant{{KindStmt, "func() { x = 2 }()", 1}, {KindExpr, "x", 2}}},
		{"method declaration", "type T int\nfunc (t T) Double() T { return 2 * t }",
			[]unitWant{{KindDecl, "type T int\nfunc (t T) Double() T { return 2 * t }", 1}}},
		{"comment and blank lines keep lines", "// set up\n\nv := 3 // three\n\nv",
			[]unitWant{{KindStmt, "v := 3", 3}, {KindExpr, "v", 5}}},
		{"multi-line statement", "for i := 0; i < 2; i++ {\n\tprintln(i)\n}",
			[]unitWant{{KindStmt, "for i := 0; i < 2; i++ {\n\tprintln(i)\n}", 1}}},
		{"var runs as a statement", "var n = 4\nn * 2",
			[]unitWant{{KindStmt, "var n = 4", 1}, {KindExpr, "n * 2", 2}}},
		{"empty cell", "  \n// only a comment\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.src, newEnv(t, "x := 0"))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := units(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseRecordsDeclaredNamesKindsAndTypes(t *testing.T) {
	env := newEnv(t)
	p, err := Parse("x := 1.5\nvar s []string\nfunc f(n int) string { return \"\" }\ntype T struct{}\nconst c = 3", env)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range p.Units {
		for _, n := range u.Names {
			got[n] = u.Kinds[n] + " " + types.TypeString(env.scope.Lookup(n).Type(), nil)
		}
	}
	want := map[string]string{"x": "var float64", "s": "var []string", "f": "func func(n int) string", "T": "type main.T", "c": "const untyped int"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

func TestParseFinalCallIsDescribed(t *testing.T) {
	tests := []struct {
		src  string
		want *Call
	}{
		{"fmt.Println(1)", &Call{Fun: "fmt.Println", Simple: true}},
		{"println(1)", &Call{Fun: "println", Builtin: true, Simple: true}},
		{"f()(2)", &Call{Fun: "f()"}},
		{"x + 1", nil},
	}
	for _, tt := range tests {
		p, err := Parse(tt.src, nil)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		last := p.Units[len(p.Units)-1]
		if !reflect.DeepEqual(last.Call, tt.want) {
			t.Errorf("%q: call %+v, want %+v", tt.src, last.Call, tt.want)
		}
	}
}

func TestParseRefusesWhatItCannotRewrite(t *testing.T) {
	env := newEnv(t, "seq := func(yield func(int) bool) {}")
	tests := []struct {
		name, src, construct string
		line                 int
	}{
		{"bare return with named results in iterator loop", "func f() (n int) {\n\tfor v := range seq {\n\t\tn = v\n\t\treturn\n\t}\n\treturn\n}", "a bare return with named results inside a loop over a function iterator", 4},
		{"min of unknown types", "x := min(a.B, c.D)", "min of arguments whose type goaccel cannot infer", 1},
		{"break to outer label", "L: for {\n for v := range seq { break L }\n}", "break L out of a loop over a function iterator", 2},
		{"defer in a top-level type switch", "var x any = 1\nswitch x.(type) {\ncase int:\n\tdefer println(x)\n}", "defer inside this top-level statement", 4},
		{"generic type alias", "type Set[T comparable] = map[T]struct{}", "a generic type alias (Set[…] = …)", 1},
		{"generic type alias in a function", "func f() {\n\ttype L[T any] = []T\n}", "a generic type alias (L[…] = …)", 2},
		{"declaration after a top-level return", "if true {\n\treturn\n}\nfunc f() {}", "a declaration after a top-level return or goto", 4},
		{"value shown after a top-level goto", "goto L\nL:\nx := 1\nx", "a value to show after a top-level return or goto", 4},
		{"type declared after a top-level return", "if true {\n\treturn\n}\ntype T int", "a declaration after a top-level return or goto", 4},
		{"const declared after a top-level return", "if true {\n\treturn\n}\nconst c = 1\nprintln(c)", "a declaration after a top-level return or goto", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src, env)
			var ue *UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want *UnsupportedError", err)
			}
			if ue.Construct != tt.construct || ue.Line != tt.line {
				t.Errorf("got %q at line %d, want %q at line %d", ue.Construct, ue.Line, tt.construct, tt.line)
			}
		})
	}
}

func TestParseReportsSyntaxErrorsAtCellPositions(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
	}{
		{"x := 1\ny := )", 2, 6},
		{"func f() {\n\treturn 1 +\n}", 3, 1},
		{"a b", 1, 3},
		{"x :=", 1, 5},
		{"}", 1, 2},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src, nil)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: err = %v, want *SyntaxError", tt.src, err)
		}
		if se.Line != tt.line || se.Col != tt.col {
			t.Errorf("%q: at %d:%d (%s), want %d:%d", tt.src, se.Line, se.Col, se.Msg, tt.line, tt.col)
		}
	}
}

func TestParseAddsMissingStandardLibraryImports(t *testing.T) {
	tests := []struct {
		name, src string
		session   string
		want      []string
	}{
		{"used package", `strings.ToUpper("a")`, "", []string{"strings"}},
		{"two packages", "x := rand.Intn(3)\nfmt.Println(math.Pi, x)", "", []string{"fmt", "math", "math/rand"}},
		{"already imported in cell", "import \"strings\"\nstrings.ToUpper(\"a\")", "", nil},
		{"imported by an earlier cell", `strings.ToUpper("a")`, "import \"strings\"", nil},
		{"variable named like a package", "strings := []string{}\n_ = strings", "", nil},
		{"local variable shadows", "func f(math int) int { return math.X }", "", nil},
		{"field access on session variable", "fmt := 1\n_ = fmt", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			if tt.session != "" {
				env.add(t, tt.session)
			}
			p, err := Parse(tt.src, env)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.AutoImports, tt.want) {
				t.Errorf("auto imports %v, want %v", p.AutoImports, tt.want)
			}
		})
	}
}

func TestIsComplete(t *testing.T) {
	tests := []struct {
		src, status, indent string
	}{
		{"x := 1", "complete", ""},
		{"func f() {", "incomplete", "\t"},
		{"for i := 0; i < 3; i++ {\n\tif i > 1 {", "incomplete", "\t\t"},
		{"x := []int{1,\n", "incomplete", "\t"},
		{"s := `raw", "incomplete", ""},
		{"x := 1 +", "incomplete", ""},
		{"x := )", "invalid", ""},
		{"}", "invalid", ""},
		{"%time x := 1", "complete", ""},
		{"%%writefile a.txt\nhello", "incomplete", ""},
		{"", "complete", ""},
	}
	for _, tt := range tests {
		status, indent := IsComplete(tt.src)
		if status != tt.status || indent != tt.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", tt.src, status, indent, tt.status, tt.indent)
		}
	}
}

func TestParseListsUndefinedIdentifiers(t *testing.T) {
	tests := []struct {
		src     string
		session string
		want    []string
	}{
		{"b := a + undefinedName", "a := 1", []string{"undefinedName"}},
		{"x := 1\ny := x + len(\"s\")\nfmt.Println(y, true, nil)", "", nil},
		{"type P struct{ A int }\np := P{A: 1}\n_ = p", "", nil},
		{"func f() { g() }", "", []string{"g"}},
	}
	for _, tt := range tests {
		p, err := Parse(tt.src, newEnv(t, tt.session))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Undefined, tt.want) {
			t.Errorf("%q: undefined %v, want %v", tt.src, p.Undefined, tt.want)
		}
	}
}

func TestParseMarkedSetsTheLineBeforeEachTopLevelStatement(t *testing.T) {
	p, err := ParseMarked("a := 1\nb := 2; c := 3\n\nfor i := 0; i < 2; i++ {\n}\nfunc f() {}\nd := 4", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "__goaccel_line = 1; a := 1\n__goaccel_line = 2; b := 2; __goaccel_line = 2; c := 3\n\n__goaccel_line = 4; for i := 0; i < 2; i++ {\n}"
	if u := p.Units[0]; u.Text != want {
		t.Errorf("got  %q\nwant %q", u.Text, want)
	}
	// The map takes positions past the markers back to the user's columns.
	u := p.Units[0]
	for _, tc := range []struct{ line, col, wantLine, wantCol int }{{2, 20, 2, 1}, {2, 42, 2, 9}, {2, 49, 2, 9}, {2, 50, 2, 10}, {4, 20, 4, 1}, {1, 21, 1, 1}, {1, 22, 1, 2}} {
		if o, ok := u.Map.Lookup(tc.line, tc.col); !ok || o.Line != tc.wantLine || o.Col != tc.wantCol {
			t.Errorf("Lookup(%d, %d) = %+v, %v; want line %d col %d", tc.line, tc.col, o, ok, tc.wantLine, tc.wantCol)
		}
	}
}

func TestParseRenamesRedefinedTypes(t *testing.T) {
	env := newEnv(t, "type T int", "type U int")
	env.typeNames["U"] = "U__goaccel2"
	p, err := Parse("type T struct{ T int }\nfunc (t T) Get() T { return T{T: t.T} }\nvar u U\nx := T{}", env)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, u := range p.Units {
		texts = append(texts, u.Text)
	}
	want := "type T__goaccel2 struct{ T int }\nfunc (t T__goaccel2) Get() T__goaccel2 { return T__goaccel2{T: t.T} }\nvar u U__goaccel2\nx := T__goaccel2{}"
	if got := strings.Join(texts, "\n"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !reflect.DeepEqual(p.Renamed, map[string]string{"T": "T__goaccel2"}) {
		t.Errorf("renamed %v", p.Renamed)
	}
}

func TestParseMarkedSetsTheLineBeforeNestedStatements(t *testing.T) {
	p, err := ParseMarked("for i := 0; i < 2; i++ {\n\tswitch {\n\tcase i > 0:\n\t\tprintln(i)\n\t}\n\tf := func() { println(1) }\n\tf()\n}", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "__goaccel_line = 1; for i := 0; i < 2; i++ {\n\t__goaccel_line = 2; switch {\n\tcase i > 0:\n\t\t__goaccel_line = 4; println(i)\n\t}\n\t__goaccel_line = 6; f := func() { println(1) }\n\t__goaccel_line = 7; f()\n}"
	if got := p.Units[0].Text; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestParseOrdersDeclarationsBeforeTheirFirstUse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []unitWant
	}{
		{"func declared after the loop that calls it",
			"for i := 0; i < 1; i++ { a := two2(); fmt.Println(a) }\nfunc two2() int { return 1 }",
			[]unitWant{{KindImport, `import ("fmt")`, 1}, {KindDecl, "func two2() int { return 1 }", 2}, {KindStmt, "for i := 0; i < 1; i++ { a := two2(); fmt.Println(a) }", 1}}},
		{"func using a variable stays after it",
			"x := 1\nfunc f() int { return x }\nf()",
			[]unitWant{{KindStmt, "x := 1", 1}, {KindDecl, "func f() int { return x }", 2}, {KindExpr, "f()", 3}}},
		{"func using a later variable moves after it",
			"func f() int { return x }\nx := 1\nf()",
			[]unitWant{{KindStmt, "x := 1", 2}, {KindDecl, "func f() int { return x }", 1}, {KindExpr, "f()", 3}}},
		{"type declared after its use, methods with it",
			"p := pt{1}\np.get()\ntype pt struct{ v int }\nfunc (q pt) get() int { return q.v }",
			[]unitWant{{KindDecl, "type pt struct{ v int }\nfunc (q pt) get() int { return q.v }", 3}, {KindStmt, "p := pt{1}\np.get()", 1}}},
		{"const used by an earlier statement",
			"y := k * 2\nconst k = 3",
			[]unitWant{{KindDecl, "const k = 3", 2}, {KindStmt, "y := k * 2", 1}}},
		{"declarations using later declarations",
			"func a() int { return b() }\nfunc b() int { return 2 }",
			[]unitWant{{KindDecl, "func b() int { return 2 }", 2}, {KindDecl, "func a() int { return b() }", 1}}},
		{"statements keep their order",
			"y := 1\nz := y\nfunc g() {}",
			[]unitWant{{KindStmt, "y := 1\nz := y", 1}, {KindDecl, "func g() {}", 3}}},
		{"a cycle keeps the cell's order",
			"x := f()\nfunc f() int { return x }",
			[]unitWant{{KindStmt, "x := f()", 1}, {KindDecl, "func f() int { return x }", 2}}},
		{"mutual recursion keeps the cell's order",
			"func even(n int) bool { return n == 0 || odd(n-1) }\nfunc odd(n int) bool { return n != 0 && even(n-1) }",
			[]unitWant{{KindDecl, "func even(n int) bool { return n == 0 || odd(n-1) }\nfunc odd(n int) bool { return n != 0 && even(n-1) }", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.src, newEnv(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := units(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
