package session

import (
	"context"
	"flag"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/cells/rewritetest"
)

var updateOutput = flag.Bool("update", false, "write the Output sections of kernel/internal/cells/testdata/rewrite/*.go")

// TestRewrittenCellsRunAsWritten runs every golden file of the cell rewrites
// (kernel/internal/cells/testdata/rewrite, whose rewritten code the cells test
// checks) in a session and compares what it prints and shows with the
// file's Output section (go test -update writes them).
func TestRewrittenCellsRunAsWritten(t *testing.T) {
	cases, err := rewritetest.Load("../cells/testdata/rewrite")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s, out := newSession(t)
			ctx := context.Background()
			if c.Session != "" {
				if r := s.Execute(ctx, c.Session); r.Error != nil {
					t.Fatalf("session cell: %s", strings.Join(r.Error.Traceback, "\n"))
				}
			}
			out.Reset()
			r := s.Execute(ctx, c.Cell)
			got := out.String()
			if r.Error != nil {
				got += r.Error.Ename + ": " + r.Error.Evalue + "\n"
			} else if text, ok := r.Data["text/plain"].(string); ok {
				got += text + "\n"
			}
			got = strings.TrimSuffix(got, "\n")
			if *updateOutput {
				c.HasOutput = true
				c.Output = got
				if err := rewritetest.Write(c, c.Rewritten); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !c.HasOutput {
				t.Fatalf("%s has no Output section (go test -update writes it)", c.Path)
			}
			if got != c.Output {
				t.Errorf("%s: output\n%s\nwant\n%s", c.Path, got, c.Output)
			}
		})
	}
}
