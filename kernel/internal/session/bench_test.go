package session

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
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

// BenchmarkExecuteTrivialCellManyDecls is BenchmarkExecuteTrivialCell in a
// session that has declared 200 functions, types and variables, without and
// with a state file (as under the kernel): a cell that declares nothing
// should not pay for the state file.
func BenchmarkExecuteTrivialCellManyDecls(b *testing.B) {
	var decls strings.Builder
	decls.WriteString("import (\"fmt\"; \"strings\"; \"math\")\nx := 1\n")
	for i := range 200 {
		fmt.Fprintf(&decls, "type T%d struct{ A, B int }\nfunc f%d(t T%d) int { return t.A + %d }\nvar v%d = map[string][]T%d{}\n", i, i, i, i, i, i)
	}
	for _, state := range []bool{false, true} {
		b.Run(fmt.Sprintf("state=%v", state), func(b *testing.B) {
			var opts Options
			if state {
				opts.StateFile = filepath.Join(b.TempDir(), "state.json")
			}
			s, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if r := s.Execute(ctx, decls.String()); r.Error != nil {
				b.Fatal(r.Error.Evalue)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if r := s.Execute(ctx, "x + 1"); r.Error != nil {
					b.Fatal(r.Error.Evalue)
				}
			}
		})
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
