package repl

import (
	"context"
	"testing"
)

// BenchmarkExecuteTrivialCell measures one small cell through the whole
// pipeline (parse, imports, compile, run, result) in a session that has
// already imported a few packages.
func BenchmarkExecuteTrivialCell(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s.Execute(ctx, "import (\"fmt\"; \"strings\"; \"math\")\nx := 1")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := s.Execute(ctx, "x + 1"); r.Error != nil {
			b.Fatal(r.Error.Evalue)
		}
	}
}

// BenchmarkYaegiEvalBaseline is the same expression through a bare yaegi
// Eval, the floor the session's pipeline adds to.
func BenchmarkYaegiEvalBaseline(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Execute(context.Background(), "x := 1")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.yaegi.Eval("x + 1"); err != nil {
			b.Fatal(err)
		}
	}
}
