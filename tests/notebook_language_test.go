package tests

import (
	"fmt"
	"strings"
	"testing"
)

func init() {
	exampleNotebooks = append(exampleNotebooks, "go_language")
	notebookChecks["go_language"] = checkGoLanguageNotebook
}

// checkGoLanguageNotebook checks what go_language.ipynb's cells print: a
// goroutine's panic report on stderr cannot fail its cell, and the notes of
// the moves to derived executors are on stderr, so the notebook alone cannot
// check them. Its "Any module" cells fetch github.com/google/uuid through
// GOPROXY (the module cache keeps it) and build two executors (the Go build
// cache keeps goaccel's packages; the test's GOACCEL_CACHE is temporary, so
// each run links them anew, tens of seconds).
func checkGoLanguageNotebook(t *testing.T, nb executedNotebook) {
	for _, c := range []struct{ cell, want string }{
		{"go func() {\n\tdefer close(done)", "panic in a goroutine this cell started"},
		{"go func() {\n\tdefer close(done)", "assignment to entry in nil map"},
		{"Everything declared before the panic is still here", "session intact: after 4"},
		{"fs = append(fs, func() int { return i * 10 })", "0 10 20"},
		{"names := slices.Sorted(maps.Keys(scores))", "[ada bo cy] 91.5 -1"},
		{"%timeit -n 200 -r 3", "per loop (mean ± std. dev. of 3 runs, 200 loops each)"},
		// Any module: uuid from the module proxy, then a local module; the
		// session moves with its declarations and values each time.
		{`import "github.com/google/uuid"`, "76d71d1b-203b-51c3-b17d-c090cb0e4e32 VERSION_5"},
		{`import "github.com/google/uuid"`, "variables kept: best"},
		{`import "github.com/google/uuid"`, "variables lost (now zero values; run their cells again): done"},
		{"%go mod use notebooklib", "using example.com/notebooklib => "},
		{`import "example.com/notebooklib/stats"`, "n=3 mean=84.83 max=91.50 VERSION_5"},
		{"%go list", "package github.com/google/uuid (module github.com/google/uuid v"},
		{"%go list", "package example.com/notebooklib/stats (module example.com/notebooklib => "},
	} {
		i := nb.cellWith(t, c.cell)
		if text := nb.text(i); !strings.Contains(text, c.want) {
			t.Errorf("cell %d (%q): output %q lacks %q", i, c.cell, text, c.want)
		}
	}
	if i := nb.cellWith(t, "%%capture quiet"); len(nb.Cells[i].Outputs) != 0 {
		t.Errorf("the %%%%capture cell shows %d outputs, want none", len(nb.Cells[i].Outputs))
	}
}

// text is everything a cell printed or showed as plain text.
func (nb executedNotebook) text(cell int) string {
	var b strings.Builder
	for _, o := range nb.Cells[cell].Outputs {
		switch t := o.Text.(type) {
		case string:
			b.WriteString(t)
		case []any:
			for _, s := range t {
				b.WriteString(fmt.Sprint(s))
			}
		}
		if v, ok := o.Data["text/plain"]; ok {
			b.WriteString(fmt.Sprint(v))
		}
	}
	return b.String()
}
