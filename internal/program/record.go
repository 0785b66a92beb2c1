package program

import (
	"sort"
	"strings"
)

// Decl is one package-level declaration of the notebook.
type Decl struct {
	// Kind is "func", "method", "type", "const" or "var".
	Kind string
	// Names are the names it declares; a method's is "Recv.Method".
	Names []string
	// Text is the declaration as the user wrote it; its first Prefix bytes
	// are not in the cell (a keyword put back on a spec taken out of a group).
	Text   string
	Prefix int
	// At is where the user's part of Text starts.
	At Origin
}

// Record is the notebook's declarations in definition order. A Decl that
// declares a name replaces the earlier one declaring it (and moves to the
// end); a type's redefinition drops the methods earlier cells gave it, as
// the session does. The zero Record is not usable: call NewRecord. A Record
// is not safe for concurrent use; take a Snapshot to read it elsewhere.
type Record struct {
	decls    []Decl
	imports  map[string]string // package name → import path
	stmtVars map[string]Origin // names a top-level statement (x := …) defined last
}

// NewRecord returns an empty record.
func NewRecord() *Record {
	return &Record{imports: map[string]string{}, stmtVars: map[string]Origin{}}
}

// Import records that cells import path under name ("_" and "." included).
// A package name hides a declaration of the same name, as in the session.
func (r *Record) Import(name, path string) {
	if name != "_" && name != "." {
		r.remove(name)
		delete(r.stmtVars, name)
	}
	key := name
	if name == "_" || name == "." {
		key = name + path
	}
	r.imports[key] = path
}

// Define records d, replacing every earlier declaration of one of its names.
func (r *Record) Define(d Decl) {
	for _, n := range d.Names {
		if n == "init" || n == "_" {
			continue // Go allows many; none replaces another
		}
		r.remove(n)
		delete(r.stmtVars, n)
		delete(r.imports, n)
	}
	if d.Kind == "type" {
		for _, n := range d.Names {
			r.dropMethods(n, d.At.Cell)
		}
	}
	r.decls = append(r.decls, d)
}

// DefineByStatement records that a top-level statement of the cell at
// (x := …) defined name: earlier declarations of name no longer apply, and a
// worker program cannot have it.
func (r *Record) DefineByStatement(name string, at Origin) {
	r.remove(name)
	delete(r.imports, name)
	r.stmtVars[name] = at
}

// remove drops the declarations that declare name.
func (r *Record) remove(name string) {
	out := r.decls[:0]
	for _, d := range r.decls {
		if !contains(d.Names, name) {
			out = append(out, d)
		}
	}
	r.decls = out
}

// dropMethods drops the methods of typ declared before cell.
func (r *Record) dropMethods(typ string, cell int) {
	out := r.decls[:0]
	for _, d := range r.decls {
		if d.Kind == "method" && d.At.Cell < cell && len(d.Names) == 1 && strings.HasPrefix(d.Names[0], typ+".") {
			continue
		}
		out = append(out, d)
	}
	r.decls = out
}

// Lookup returns the declaration of name ("T.M" for a method).
func (r *Record) Lookup(name string) (Decl, bool) {
	for _, d := range r.decls {
		if contains(d.Names, name) {
			return d, true
		}
	}
	return Decl{}, false
}

// StatementVar reports whether name was last defined by a top-level
// statement, and where.
func (r *Record) StatementVar(name string) (Origin, bool) {
	o, ok := r.stmtVars[name]
	return o, ok
}

// Decls returns the declarations in definition order.
func (r *Record) Decls() []Decl { return append([]Decl(nil), r.decls...) }

// Imports returns the recorded imports as sorted "name path" pairs.
func (r *Record) Imports() [][2]string {
	var out [][2]string
	for k, p := range r.imports {
		name := k
		if strings.HasPrefix(k, "_") || strings.HasPrefix(k, ".") {
			name = k[:1]
		}
		out = append(out, [2]string{name, p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][1] < out[j][1] || out[i][1] == out[j][1] && out[i][0] < out[j][0] })
	return out
}

// Snapshot returns a copy that later changes to r do not affect.
func (r *Record) Snapshot() *Record {
	c := NewRecord()
	c.decls = append(c.decls, r.decls...)
	for k, v := range r.imports {
		c.imports[k] = v
	}
	for k, v := range r.stmtVars {
		c.stmtVars[k] = v
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
