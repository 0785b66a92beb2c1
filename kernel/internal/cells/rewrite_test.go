package cells

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/cells/rewritetest"
)

var update = flag.Bool("update", false, "rewrite the Rewritten sections of testdata/rewrite/*.go")

// TestRewrites checks every golden file of testdata/rewrite: the cell, in a
// session that ran the file's Session cell, becomes the units its Rewritten
// section shows (go test -update writes them). The session's test runs the
// same files for their Output.
func TestRewrites(t *testing.T) {
	cases, err := rewritetest.Load("testdata/rewrite")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden files in testdata/rewrite")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			env := newEnv(t)
			if c.Session != "" {
				env.add(t, c.Session)
			}
			got, err := rewritten(c.Cell, env)
			if err != nil {
				got = "error: " + err.Error()
			}
			if *update {
				if err := rewritetest.Write(c, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != c.Rewritten {
				t.Errorf("%s: rewritten\n%s\nwant\n%s", c.Path, got, c.Rewritten)
			}
		})
	}
}

// rewritten shows the units a cell becomes, as golden files hold them.
func rewritten(cell string, env Env) (string, error) {
	p, err := ParseMarked(cell, env)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, u := range p.Units {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "-- %s, line %d --\n%s", u.Kind, u.Line, u.Text)
	}
	return b.String(), nil
}
