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
	internal map[string]string // redefined type → the interpreter's name for it
	version  uint64            // changes so far (Version)
}

// NewRecord returns an empty record.
func NewRecord() *Record {
	return &Record{imports: map[string]string{}, stmtVars: map[string]Origin{}, internal: map[string]string{}}
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
	// A name cannot be both imported and declared (Define and
	// DefineByStatement drop its import): an import that hides a
	// declaration is a new one.
	if p, ok := r.imports[key]; !ok || p != path {
		r.imports[key] = path
		r.version++
	}
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
	r.version++
}

// DefineByStatement records that a top-level statement of the cell at
// (x := …) defined name: earlier declarations of name no longer apply, and a
// worker program cannot have it.
func (r *Record) DefineByStatement(name string, at Origin) {
	r.remove(name)
	delete(r.imports, name)
	r.stmtVars[name] = at
	r.version++
}

// remove drops the declarations that declare name.
func (r *Record) remove(name string) {
	delete(r.internal, name)
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
	for k, v := range r.internal {
		c.internal[k] = v
	}
	c.version = r.version
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

// Symbol is what the record knows of one name.
type Symbol struct {
	Name string
	// Kind is "func", "type", "const", "var" (declared, or defined by a
	// statement), "method" (for "T.M") or "import".
	Kind string
	// Decl is the name's declaration (nil for a statement's variable and an
	// import).
	Decl *Decl
	// At is where it was declared or defined (zero for an import).
	At Origin
	// Path is an import's path.
	Path string
	// Internal is the interpreter's name for a type a later cell redefined
	// ("" when it is the name itself).
	Internal string
}

// Symbol returns what the record knows of name ("T.M" for a method): its
// declaration, the statement that defined it, or its import.
func (r *Record) Symbol(name string) (Symbol, bool) {
	if d, ok := r.Lookup(name); ok {
		return Symbol{Name: name, Kind: d.Kind, Decl: &d, At: d.At, Internal: r.internal[name]}, true
	}
	if at, ok := r.stmtVars[name]; ok {
		return Symbol{Name: name, Kind: "var", At: at}, true
	}
	if p, ok := r.imports[name]; ok {
		return Symbol{Name: name, Kind: "import", Path: p}, true
	}
	return Symbol{}, false
}

// Names lists every name the record holds (methods as "T.M", imports
// included except blank and dot imports), sorted.
func (r *Record) Names() []string {
	seen := map[string]bool{}
	for _, d := range r.decls {
		for _, n := range d.Names {
			seen[n] = true
		}
	}
	for n := range r.stmtVars {
		seen[n] = true
	}
	for k := range r.imports {
		if !strings.HasPrefix(k, "_") && !strings.HasPrefix(k, ".") {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// StatementVars lists the names top-level statements defined last, sorted.
func (r *Record) StatementVars() []string {
	out := make([]string, 0, len(r.stmtVars))
	for n := range r.stmtVars {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Methods lists the method names of type typ, sorted.
func (r *Record) Methods(typ string) []string {
	var out []string
	for _, d := range r.decls {
		if d.Kind == "method" && len(d.Names) == 1 {
			if t, m, _ := strings.Cut(d.Names[0], "."); t == typ {
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out
}

// SetInternal records the interpreter's name for type name (a redefinition
// runs under a new name, since yaegi keeps a type's first definition).
func (r *Record) SetInternal(name, internal string) {
	if old, ok := r.internal[name]; ok && old == internal || !ok && internal == name {
		return
	}
	if internal == name {
		delete(r.internal, name)
	} else {
		r.internal[name] = internal
	}
	r.version++
}

// Version counts the changes to r: it is the same as when last read only
// if r holds the same declarations, imports and variables.
func (r *Record) Version() uint64 { return r.version }

// UserName returns the user's name for an interpreter type name.
func (r *Record) UserName(internal string) string {
	for user, in := range r.internal {
		if in == internal {
			return user
		}
	}
	return internal
}

// Internals returns user type name → interpreter name for the redefined types.
func (r *Record) Internals() map[string]string {
	out := make(map[string]string, len(r.internal))
	for k, v := range r.internal {
		out[k] = v
	}
	return out
}

// ImportPath returns the path of the package imported as name, "" when none.
func (r *Record) ImportPath(name string) string {
	if name == "_" || name == "." {
		return ""
	}
	return r.imports[name]
}
