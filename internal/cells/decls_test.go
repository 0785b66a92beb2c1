package cells

import (
	"reflect"
	"testing"
)

func TestDeclarationsKeepTheUsersTextAndPositions(t *testing.T) {
	src := "import \"fmt\"\nx := 3\ntype (\n\tA int\n\tB struct{ X A }\n)\nconst (\n\tC = iota\n\tD\n)\n" +
		"var y, _ = 1, 2\nfunc (b *B) Get() A { return b.X }\nfunc f[T any](v T) T { return v }\n" +
		"func() { fmt.Println(x) }()\nfor i := range 3 { fmt.Println(i) }\nvar (\n\tz = 1\n)"
	got, err := Declarations(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Decl{
		{Kind: "type", Names: []string{"A"}, Text: "type A int", Prefix: 5, Line: 4, Col: 2},
		{Kind: "type", Names: []string{"B"}, Text: "type B struct{ X A }", Prefix: 5, Line: 5, Col: 2},
		{Kind: "const", Names: []string{"C", "D"}, Text: "const (\n\tC = iota\n\tD\n)", Line: 7, Col: 1},
		{Kind: "var", Names: []string{"y"}, Text: "var y, _ = 1, 2", Line: 11, Col: 1},
		{Kind: "method", Names: []string{"B.Get"}, Text: "func (b *B) Get() A { return b.X }", Line: 12, Col: 1},
		{Kind: "func", Names: []string{"f"}, Text: "func f[T any](v T) T { return v }", Line: 13, Col: 1},
		{Kind: "var", Names: []string{"z"}, Text: "var z = 1", Prefix: 4, Line: 17, Col: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Declarations:\n got %+v\nwant %+v", got, want)
	}
	if _, err := Declarations("func f( {"); err == nil {
		t.Error("Declarations of a syntax error: want an error")
	}
}
