package magics

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Env is what magics need from the session that runs them.
type Env interface {
	Stdout() io.Writer
	Stderr() io.Writer
	// RunGo runs Go code as a cell would; result is the session's own result
	// value, passed back untouched in Output.Result; failed reports an error.
	RunGo(ctx context.Context, code string) (result any, failed bool)
	// Who lists the session's variables as "name type" lines, sorted.
	Who() []string
	// Doc returns the documentation page for a symbol such as strings.Split.
	Doc(symbol string) (page string, found bool)
}

// Output is what a magic produced besides what it wrote to Env's writers.
type Output struct {
	Result    any    // a RunGo result to report as the cell's (%time)
	Page      string // text for the pager (%doc)
	NextInput string // text to replace the cell with in the front end (%load)
}

// Magic is one registered magic.
type Magic struct {
	Name  string // without % (cell magics: without %%)
	Cell  bool   // a %% cell magic
	Usage string // e.g. "%env [VAR[=value]]"
	Help  string // one line
	Run   func(ctx context.Context, c Call, env Env) (Output, error)
}

// Registry holds the magics a session knows.
type Registry struct {
	line, cell map[string]Magic
}

// NewRegistry returns a registry with the basic magics.
func NewRegistry() *Registry {
	r := &Registry{line: map[string]Magic{}, cell: map[string]Magic{}}
	for _, m := range append(basics(r), sessionMagics()...) {
		if err := r.Register(m); err != nil {
			panic(err) // the built-in table is fixed: a duplicate is a programming error
		}
	}
	return r
}

// Register adds a magic; a name already taken (for its kind) is an error.
func (r *Registry) Register(m Magic) error {
	if m.Name == "" || m.Run == nil {
		return fmt.Errorf("magics: register %q: a magic needs a name and a Run function", m.Name)
	}
	table := r.line
	if m.Cell {
		table = r.cell
	}
	if _, dup := table[m.Name]; dup {
		return fmt.Errorf("magics: register %s: already registered", prefix(m)+m.Name)
	}
	table[m.Name] = m
	return nil
}

// Run runs one call; an unknown magic is an error that lists the known ones.
func (r *Registry) Run(ctx context.Context, c Call, env Env) (Output, error) {
	if c.Shell {
		return Output{}, runShell(ctx, c.Args, env)
	}
	table := r.line
	if c.Cell {
		table = r.cell
	}
	m, ok := table[c.Name]
	if !ok {
		p := "%"
		if c.Cell {
			p = "%%"
		}
		return Output{}, fmt.Errorf("unknown magic %s%s; known magics: %s (and !command)", p, c.Name, strings.Join(r.Names(), ", "))
	}
	return m.Run(ctx, c, env)
}

// Names returns every magic with its % prefix, sorted.
func (r *Registry) Names() []string {
	var out []string
	for _, m := range r.all() {
		out = append(out, prefix(m)+m.Name)
	}
	return out
}

func (r *Registry) all() []Magic {
	var out []Magic
	for _, m := range r.line {
		out = append(out, m)
	}
	for _, m := range r.cell {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return prefix(out[i])+out[i].Name < prefix(out[j])+out[j].Name })
	return out
}

func prefix(m Magic) string {
	if m.Cell {
		return "%%"
	}
	return "%"
}
