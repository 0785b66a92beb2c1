package srcmap

import "testing"

func TestLookupFollowsCopiedTextInsertedTextAndGeneratedText(t *testing.T) {
	var inner Builder
	inner.Copy("for i := ", Origin{Line: 2, Col: 1})
	inner.Insert("0; i < n; i++", Origin{Line: 2, Col: 10})
	inner.Copy(" {\n\tf(i)\n}", Origin{Line: 2, Col: 18})
	var b Builder
	b.Generated("package main\nfunc main() {\n")
	b.Append(inner.Map(""), 7)
	b.Generated("\n}")
	m := b.Map("cell7.go")
	for _, tc := range []struct {
		line, col int
		want      string
		ok        bool
	}{
		{1, 1, "", false},                    // package clause
		{3, 1, "cell [7], line 2:1", true},   // for
		{3, 5, "cell [7], line 2:5", true},   // i
		{3, 12, "cell [7], line 2:10", true}, // inside the inserted clause
		{3, 23, "cell [7], line 2:18", true}, // the space before {
		{4, 2, "cell [7], line 3:2", true},   // f(i) on the next cell line
		{4, 0, "cell [7], line 3", true},     // a line without a column
		{5, 1, "cell [7], line 4:1", true},   // }
		{6, 1, "", false},                    // the generated closing brace
		{9, 1, "", false},                    // past the end
	} {
		o, ok := m.Lookup(tc.line, tc.col)
		if ok != tc.ok || ok && o.WithCol() != tc.want {
			t.Errorf("Lookup(%d, %d) = %s, %v; want %q, %v", tc.line, tc.col, o.WithCol(), ok, tc.want, tc.ok)
		}
	}
	if got := m.Translate("./cell7.go:4:2: undefined: f (and cell7.go:1:1, other.go:4:2)"); got != "cell [7], line 3:2: undefined: f (and cell7.go:1:1, other.go:4:2)" {
		t.Errorf("Translate = %q", got)
	}
	if m.Line(4) != "\tf(i)" || m.Line(9) != "" {
		t.Errorf("Line(4) = %q, Line(9) = %q", m.Line(4), m.Line(9))
	}
	if o, ok := m.First("at /tmp/x/cell7.go:1 and cell7.go:5"); !ok || o.String() != "cell [7], line 4" {
		t.Errorf("First = %v, %v", o, ok)
	}
}
