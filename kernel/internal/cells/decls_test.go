package cells

import (
	"reflect"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/program"
)

func TestDeclarationsKeepTheUsersTextAndPositions(t *testing.T) {
	src := "import \"fmt\"\nx := 3\ntype (\n\tA int\n\tB struct{ X A }\n)\nconst (\n\tC = iota\n\tD\n)\n" +
		"var y, _ = 1, 2\nfunc (b *B) Get() A { return b.X }\nfunc f[T any](v T) T { return v }\n" +
		"func() { fmt.Println(x) }()\nfor i := range 3 { fmt.Println(i) }\nvar (\n\tz = 1\n)"
	p, err := Parse(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := p.Decls
	want := []Decl{
		{Kind: "type", Names: []string{"A"}, Text: "type A int", Prefix: 5, At: program.Origin{Line: 4, Col: 2}},
		{Kind: "type", Names: []string{"B"}, Text: "type B struct{ X A }", Prefix: 5, At: program.Origin{Line: 5, Col: 2}},
		{Kind: "const", Names: []string{"C", "D"}, Text: "const (\n\tC = iota\n\tD\n)", At: program.Origin{Line: 7, Col: 1}},
		{Kind: "var", Names: []string{"y"}, Text: "var y, _ = 1, 2", At: program.Origin{Line: 11, Col: 1}},
		{Kind: "method", Names: []string{"B.Get"}, Text: "func (b *B) Get() A { return b.X }", At: program.Origin{Line: 12, Col: 1}},
		{Kind: "func", Names: []string{"f"}, Text: "func f[T any](v T) T { return v }", At: program.Origin{Line: 13, Col: 1}},
		{Kind: "var", Names: []string{"z"}, Text: "var z = 1", Prefix: 4, At: program.Origin{Line: 17, Col: 2}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decls:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseNamesTheFunctionPassedToLaunch(t *testing.T) {
	env := newEnv(t, "cfg := 1")
	env.addImport("nl", launcherPath)
	for _, tc := range []struct{ name, src, want string }{
		{"session alias", "nl.Launch(train, nl.Options{}, cfg)", `nl.Launch(__goaccel.Named("train", train), nl.Options{}, cfg)`},
		{"context form in a function", "func run(ctx context.Context) { nl.LaunchContext(ctx, train, nl.Options{}) }",
			`func run(ctx context.Context) { nl.LaunchContext(ctx, __goaccel.Named("train", train), nl.Options{}) }`},
		{"cell import", "import l \"github.com/goaccel/goaccel/notebook_launcher\"\nl.Launch(f, l.Options{})", `l.Launch(__goaccel.Named("f", f), l.Options{})`},
		{"a parameter is left for Launch to refuse", "func run(f func()) { nl.Launch(f, nl.Options{}) }", "func run(f func()) { nl.Launch(f, nl.Options{}) }"},
		{"a closure is left alone", "nl.Launch(func() {}, nl.Options{})", "nl.Launch(func() {}, nl.Options{})"},
		{"another package's Launch", "rockets.Launch(train)", "rockets.Launch(train)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.src, env)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Units[len(p.Units)-1].Text
			if got != tc.want {
				t.Errorf("rewrite\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
