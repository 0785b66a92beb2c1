package cells

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fakeEnv is a session that knows some names, packages and types.
type fakeEnv struct {
	defined   map[string]bool
	types     map[string]string
	typeNames map[string]string
}

func (f fakeEnv) Defined(n string) bool { return f.defined[n] || f.types[n] != "" }
func (f fakeEnv) PackagePath(n string) string {
	return map[string]string{"strings": "strings", "fmt": "fmt", "rand": "math/rand", "math": "math"}[n]
}
func (f fakeEnv) TypeOf(n string) string { return f.types[n] }
func (f fakeEnv) TypeName(n string) (string, bool) {
	if f.typeNames == nil {
		return "", false
	}
	in, ok := f.typeNames[n]
	return in, ok
}

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
			p, err := Parse(tt.src, fakeEnv{defined: map[string]bool{"x": true}})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := units(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseRecordsDeclaredNamesAndTypes(t *testing.T) {
	p, err := Parse("x := 1.5\nvar s []string\nfunc f(n int) string { return \"\" }\ntype T struct{}\nconst c = 3", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range p.Units {
		for _, n := range u.Names {
			got[n] = u.Types[n]
		}
	}
	want := map[string]string{"x": "float64", "s": "[]string", "f": "func(n int) string", "T": "", "c": "int"}
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

func TestParseRewritesModernGo(t *testing.T) {
	env := fakeEnv{types: map[string]string{
		"n": "int", "xs": "[]float64", "seq": "func(yield func(int) bool)",
		"pairs": "func(n int) func(func(string, int) bool)", "m": "map[string]int",
		"pkg.Count": "func() int", "cfg.Steps": "int64",
	}}
	tests := []struct {
		name, src, want string
	}{
		{"range over int literal", "for i := range 3 {\n\tprintln(i)\n}",
			"{ __goaccel_n1 := 3; for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ {\n\tprintln(i)\n} }"},
		{"range over int variable without key", "for range n { }",
			"{ __goaccel_n1 := n; for __goaccel_i2 := __goaccel_n1 - __goaccel_n1; __goaccel_i2 < __goaccel_n1; __goaccel_i2++ { } }"},
		{"range over len", "for i := range len(xs) { }",
			"{ __goaccel_n1 := len(xs); for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ { } }"},
		{"range over local int in func", "func f() {\n\tk := 4\n\tfor j := range k { _ = j }\n}",
			"func f() {\n\tk := 4\n\t{ __goaccel_n1 := k; for j := __goaccel_n1 - __goaccel_n1; j < __goaccel_n1; j++ { _ = j } }\n}"},
		{"range over slice untouched", "for i := range xs { _ = i }", "for i := range xs { _ = i }"},
		{"range over map untouched", "for k := range m { _ = k }", "for k := range m { _ = k }"},
		{"range over function", "for v := range seq {\n\tif v > 2 { break }\n\tif v == 1 { continue }\n\tprintln(v)\n}",
			"{ __goaccel_seq1 := seq; __goaccel_seq1(func(v int) bool {\n\tif v > 2 { return false }\n\tif v == 1 { return true }\n\tprintln(v)\nreturn true }) }"},
		{"range over a package function's result", "for i := range pkg.Count() { _ = i }",
			"{ __goaccel_n1 := pkg.Count(); for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ { _ = i } }"},
		{"range over a field", "for i := range cfg.Steps { _ = i }",
			"{ __goaccel_n1 := cfg.Steps; for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ { _ = i } }"},
		{"range over function call with two values", "for k, v := range pairs(2) { println(k, v) }",
			"{ __goaccel_seq1 := pairs(2); __goaccel_seq1(func(k string, v int) bool { println(k, v) ; return true }) }"},
		{"range over function keeps inner loop's break", "for v := range seq { for { break }; switch { case v > 0: break } }",
			"{ __goaccel_seq1 := seq; __goaccel_seq1(func(v int) bool { for { break }; switch { case v > 0: break } ; return true }) }"},
		{"range over function declared in the cell", "func count(n int) func(func(int) bool) { return nil }\nfor i := range count(2) { _ = i }",
			"func count(n int) func(func(int) bool) { return nil }\n{ __goaccel_seq1 := count(2); __goaccel_seq1(func(i int) bool { _ = i ; return true }) }"},
		{"return inside range over function", "func first(limit int) (int, bool) {\n\tfor v := range seq {\n\t\tif v > limit { return v, true }\n\t}\n\treturn 0, false\n}",
			"func first(limit int) (int, bool) {\n\t{ var __goaccel_ret1 bool; var __goaccel_rv2 int; var __goaccel_rv3 bool; __goaccel_seq4 := seq; __goaccel_seq4(func(v int) bool {\n\t\tif v > limit { __goaccel_rv2, __goaccel_rv3 = v, true; __goaccel_ret1 = true; return false }\n\treturn true }); if __goaccel_ret1 { return __goaccel_rv2, __goaccel_rv3 } }\n\treturn 0, false\n}"},
		{"compound statement defining two values runs in a closure", "for n > 0 {\n\ta, b := pair()\n\tn -= a + b\n}",
			"func() { for n > 0 {\n\ta, b := pair()\n\tn -= a + b\n} }()"},
		{"closure wraps a rewritten range", "for i := range 2 {\n\tv, ok := m[\"k\"]\n\t_, _, _ = i, v, ok\n}",
			"func() { { __goaccel_n1 := 2; for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ {\n\tv, ok := m[\"k\"]\n\t_, _, _ = i, v, ok\n} } }()"},
		{"single defines need no closure", "if n > 0 {\n\ta := 1\n\t_ = a\n}", "if n > 0 {\n\ta := 1\n\t_ = a\n}"},
		{"labeled range over int", "outer: for i := range 2 { continue outer }",
			"{ __goaccel_n1 := 2; outer: for i := __goaccel_n1 - __goaccel_n1; i < __goaccel_n1; i++ { continue outer } }"},
		{"min of literals keeps the float kind", "a := min(3, 2.5, 1)", "a := (1.0)"},
		{"max of literals", "b := max(-1, -4)", "b := -1"},
		{"min of typed variable", "c := min(xs[0], 2)",
			"c := func(a float64, r ...float64) float64 { for _, v := range r { if v < a { a = v } }; return a }(xs[0], 2)"},
		{"nested max in min", "d := min(n, max(n, 1))",
			"d := func(a int, r ...int) int { for _, v := range r { if v < a { a = v } }; return a }(n, func(a int, r ...int) int { for _, v := range r { if v > a { a = v } }; return a }(n, 1))"},
		{"clear uses the runtime helper", "clear(m)", "__goaccel.Clear(m)"},
		{"one-line range over function body", "t := 0\nfor v := range seq { t += v }",
			"t := 0\n{ __goaccel_seq1 := seq; __goaccel_seq1(func(v int) bool { t += v ; return true }) }"},
		{"range over maps.Keys", "for k := range maps.Keys(m) { _ = k }",
			"{ __goaccel_seq1 := maps.Keys(m); __goaccel_seq1(func(k string) bool { _ = k ; return true }) }"},
		{"range over slices.All", "for i, v := range slices.All(xs) { _, _ = i, v }",
			"{ __goaccel_seq1 := slices.All(xs); __goaccel_seq1(func(i int, v float64) bool { _, _ = i, v ; return true }) }"},
		{"range over an iter.Seq result", "func count(n int) iter.Seq[int] { return nil }\nfor i := range count(2) { _ = i }",
			"func count(n int) iter.Seq[int] { return nil }\n{ __goaccel_seq1 := count(2); __goaccel_seq1(func(i int) bool { _ = i ; return true }) }"},
		{"range variable a closure captures is copied per iteration", "for _, x := range xs { fs = append(fs, func() float64 { return x }) }",
			"for _, x := range xs { x := x;  fs = append(fs, func() float64 { return x }) }"},
		{"loop variable whose address is taken is copied per iteration", "for k, v := range m { ps = append(ps, &v); _ = k }",
			"for k, v := range m { v := v;  ps = append(ps, &v); _ = k }"},
		{"three-clause loop variable is copied per iteration and handed back", "for i := 0; i < n; i++ {\n\tif i == 1 { i++; continue }\n\tgo func() { println(i) }()\n}",
			"for i := 0; i < n; i++ { __goaccel_loopvar1 := &i; i := *__goaccel_loopvar1; \n\tif i == 1 { i++; { *__goaccel_loopvar1 = i; continue } }\n\tgo func() { println(i) }()\n; *__goaccel_loopvar1 = i; }"},
		{"labeled continue from an inner loop hands the variable back", "outer: for i := 0; i < n; i++ { for { continue outer }; _ = func() int { return i } }",
			"outer: for i := 0; i < n; i++ { __goaccel_loopvar1 := &i; i := *__goaccel_loopvar1;  for { { *__goaccel_loopvar1 = i; continue outer } }; _ = func() int { return i } ; *__goaccel_loopvar1 = i; }"},
		{"loop variables nothing captures are left alone", "for i := 0; i < n; i++ { println(i) }", "for i := 0; i < n; i++ { println(i) }"},
		{"user-defined min is left alone", "func min(a, b int) int { return a }\nmin(1, 2)", "func min(a, b int) int { return a }\nmin(1, 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.src, env)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var texts []string
			for _, u := range p.Units {
				texts = append(texts, u.Text)
			}
			if got := strings.Join(texts, "\n"); got != tt.want {
				t.Errorf("rewrite\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestParseRefusesWhatItCannotRewrite(t *testing.T) {
	env := fakeEnv{types: map[string]string{"seq": "func(yield func(int) bool)"}}
	tests := []struct {
		name, src, construct string
		line                 int
	}{
		{"bare return with named results in iterator loop", "func f() (n int) {\n\tfor v := range seq {\n\t\tn = v\n\t\treturn\n\t}\n\treturn\n}", "a bare return with named results inside a loop over a function iterator", 4},
		{"min of unknown types", "x := min(a.B, c.D)", "min of arguments whose type goaccel cannot infer", 1},
		{"break to outer label", "L: for {\n for v := range seq { break L }\n}", "break L out of a loop over a function iterator", 2},
		{"top-level defer", "x := 1\ndefer println(x)", "defer at the top level of a cell", 2},
		{"top-level return", "return", "return at the top level of a cell", 1},
		{"top-level goto", "goto L\nL:\nx := 1", "goto at the top level of a cell", 1},
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
		env       fakeEnv
		want      []string
	}{
		{"used package", `strings.ToUpper("a")`, fakeEnv{}, []string{"strings"}},
		{"two packages", "x := rand.Intn(3)\nfmt.Println(math.Pi, x)", fakeEnv{}, []string{"fmt", "math", "math/rand"}},
		{"already imported in cell", "import \"strings\"\nstrings.ToUpper(\"a\")", fakeEnv{}, nil},
		{"imported by an earlier cell", `strings.ToUpper("a")`, fakeEnv{defined: map[string]bool{"strings": true}}, nil},
		{"variable named like a package", "strings := []string{}\n_ = strings", fakeEnv{}, nil},
		{"local variable shadows", "func f(math int) int { return math.X }", fakeEnv{}, nil},
		{"field access on session variable", "fmt := 1\n_ = fmt", fakeEnv{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.src, tt.env)
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
		src  string
		env  fakeEnv
		want []string
	}{
		{"b := a + undefinedName", fakeEnv{defined: map[string]bool{"a": true}}, []string{"undefinedName"}},
		{"x := 1\ny := x + len(\"s\")\nfmt.Println(y, true, nil)", fakeEnv{}, nil},
		{"type P struct{ A int }\np := P{A: 1}\n_ = p", fakeEnv{}, nil},
		{"func f() { g() }", fakeEnv{}, []string{"g"}},
	}
	for _, tt := range tests {
		p, err := Parse(tt.src, tt.env)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p.Undefined, tt.want) {
			t.Errorf("%q: undefined %v, want %v", tt.src, p.Undefined, tt.want)
		}
	}
}

func TestParseRecordsWhereEachTopLevelStatementStarts(t *testing.T) {
	p, err := Parse("a := 1\nb := 2; c := 3\n\nfor i := 0; i < 2; i++ {\n}\nfunc f() {}\nd := 4", nil)
	if err != nil {
		t.Fatal(err)
	}
	u := p.Units[0]
	var got []string
	for _, st := range u.Starts {
		got = append(got, u.Text[st:st+3])
	}
	if want := []string{"a :", "b :", "c :", "for"}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(u.StartLines, []int{1, 2, 2, 4}) {
		t.Errorf("starts %q lines %v", got, u.StartLines)
	}
	if last := p.Units[2]; !reflect.DeepEqual(last.Starts, []int{0}) || !reflect.DeepEqual(last.StartLines, []int{7}) {
		t.Errorf("last unit starts %v lines %v", last.Starts, last.StartLines)
	}
}

func TestParseRenamesRedefinedTypes(t *testing.T) {
	env := fakeEnv{typeNames: map[string]string{"T": "T", "U": "U__goaccel2"}}
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
	want := "for i := 0; i < 2; i++ {\n\t__goaccel_line = 2; switch {\n\tcase i > 0:\n\t\t__goaccel_line = 4; println(i)\n\t}\n\t__goaccel_line = 6; f := func() { println(1) }\n\t__goaccel_line = 7; f()\n}"
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
			p, err := Parse(tt.src, fakeEnv{})
			if err != nil {
				t.Fatal(err)
			}
			if got := units(p); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}
