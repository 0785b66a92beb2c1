package celltypes

import (
	"fmt"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// qualifier writes types as source in the session package: its own types
// by name, other packages' through the session's import names, or through
// new names it adds as imports.
type qualifier struct {
	session *types.Package
	names   map[string]string // path → name in source
	added   [][2]string
	used    map[string]bool
}

func newQualifier(imports [][2]string, session *types.Package) *qualifier {
	q := &qualifier{session: session, names: map[string]string{}, used: map[string]bool{}}
	for _, im := range imports {
		if im[0] != "_" && im[0] != "." {
			q.names[im[1]] = im[0]
			q.used[im[0]] = true
		}
	}
	return q
}

func (q *qualifier) name(p *types.Package) string {
	if p == nil || p == q.session || p.Path() == "main" {
		return ""
	}
	if n, ok := q.names[p.Path()]; ok {
		return n
	}
	n := p.Name()
	for i := 1; q.used[n]; i++ {
		n = "__goaccel_" + p.Name() + strconv.Itoa(i)
	}
	q.used[n] = true
	q.names[p.Path()] = n
	q.added = append(q.added, [2]string{n, p.Path()})
	return n
}

// imports returns the session's imports and the ones the qualifier added.
func (q *qualifier) imports() [][2]string {
	var out [][2]string
	for p, n := range q.names {
		out = append(out, [2]string{n, p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][1] < out[j][1] })
	return out
}

// typeSource writes t as Go source, or reports that it has no source form
// outside where it was declared (a type local to a function, an unexported
// type of another package, a type parameter).
func (q *qualifier) typeSource(t types.Type) (string, bool) {
	if !expressible(t, q.session, map[types.Type]bool{}) {
		return "", false
	}
	return types.TypeString(t, q.name), true
}

// Namer writes types as Go source for a file of the session package.
type Namer struct {
	q      *qualifier
	rename func(string) string
}

// NewNamer returns a Namer for a file that imports imports (name, path),
// naming the session's own types with rename (nil: as declared).
func NewNamer(session *types.Package, imports [][2]string, rename func(string) string) *Namer {
	return &Namer{q: newQualifier(imports, session), rename: rename}
}

// Source writes t as Go source; ok is false when t has no source form in
// the session package (a type local to a function, an unexported type of
// another package, a type parameter). A package the file does not import
// gets a new import name (see Added).
func (n *Namer) Source(t types.Type) (string, bool) {
	if t == nil || !expressible(t, n.q.session, map[types.Type]bool{}) {
		return "", false
	}
	var b strings.Builder
	writeType(&b, t, n.q, n.rename)
	return b.String(), true
}

// Added returns the imports (name, path) that Source needed beyond the
// file's own.
func (n *Namer) Added() [][2]string { return n.q.added }

// local reports whether obj is declared inside a function.
func local(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() && obj.Parent() != types.Universe
}

// writeType is types.WriteType with the session's named types renamed.
func writeType(b *strings.Builder, t types.Type, q *qualifier, rename func(string) string) {
	if rename == nil {
		b.WriteString(types.TypeString(t, q.name))
		return
	}
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		if local(obj) {
			b.WriteString(obj.Name()) // a type of the function the code is in
		} else if obj.Pkg() == q.session || obj.Pkg() != nil && obj.Pkg().Path() == "main" {
			b.WriteString(rename(obj.Name()))
		} else {
			if n := q.name(obj.Pkg()); n != "" {
				b.WriteString(n + ".")
			}
			b.WriteString(obj.Name())
		}
		if args := t.TypeArgs(); args != nil && args.Len() > 0 {
			b.WriteString("[")
			for i := 0; i < args.Len(); i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				writeType(b, args.At(i), q, rename)
			}
			b.WriteString("]")
		}
	case *types.Pointer:
		b.WriteString("*")
		writeType(b, t.Elem(), q, rename)
	case *types.Slice:
		b.WriteString("[]")
		writeType(b, t.Elem(), q, rename)
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		writeType(b, t.Elem(), q, rename)
	case *types.Map:
		b.WriteString("map[")
		writeType(b, t.Key(), q, rename)
		b.WriteString("]")
		writeType(b, t.Elem(), q, rename)
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
		}
		writeType(b, t.Elem(), q, rename)
	case *types.Signature:
		b.WriteString("func")
		writeTuple(b, t.Params(), t.Variadic(), q, rename)
		if r := t.Results(); r.Len() == 1 {
			b.WriteString(" ")
			writeType(b, r.At(0).Type(), q, rename)
		} else if r.Len() > 1 {
			b.WriteString(" ")
			writeTuple(b, r, false, q, rename)
		}
	default:
		b.WriteString(types.TypeString(t, q.name))
	}
}

func writeTuple(b *strings.Builder, t *types.Tuple, variadic bool, q *qualifier, rename func(string) string) {
	b.WriteString("(")
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		writeType(b, typ, q, rename)
	}
	b.WriteString(")")
}

// expressible reports whether t can be written in the session package.
func expressible(t types.Type, session *types.Package, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.Invalid && t.Info()&types.IsUntyped == 0
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() != nil && obj.Pkg() != session && obj.Pkg().Path() != "main" && !obj.Exported() {
			return false
		}
		// A type declared inside a function is named by its name where it
		// is used: in that function, after its declaration.
		if args := t.TypeArgs(); args != nil {
			for i := 0; i < args.Len(); i++ {
				if !expressible(args.At(i), session, seen) {
					return false
				}
			}
		}
		return true
	case *types.Alias:
		return expressible(types.Unalias(t), session, seen)
	case *types.TypeParam:
		return false
	case *types.Pointer:
		return expressible(t.Elem(), session, seen)
	case *types.Slice:
		return expressible(t.Elem(), session, seen)
	case *types.Array:
		return expressible(t.Elem(), session, seen)
	case *types.Map:
		return expressible(t.Key(), session, seen) && expressible(t.Elem(), session, seen)
	case *types.Chan:
		return expressible(t.Elem(), session, seen)
	case *types.Signature:
		return tupleExpressible(t.Params(), session, seen) && tupleExpressible(t.Results(), session, seen)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if !expressible(t.Field(i).Type(), session, seen) {
				return false
			}
		}
		return true
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if !expressible(t.Method(i).Type(), session, seen) {
				return false
			}
		}
		return true
	case *types.Tuple:
		return tupleExpressible(t, session, seen)
	}
	return false
}

func tupleExpressible(t *types.Tuple, session *types.Package, seen map[types.Type]bool) bool {
	for i := 0; i < t.Len(); i++ {
		if !expressible(t.At(i).Type(), session, seen) {
			return false
		}
	}
	return true
}
