package cells

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"
)

// renameMark separates a redefined type's name from its version.
const renameMark = "__goaccel"

// DisplayName is the name a user wrote for a type, given its interpreter
// name: a redefined type's new name less its version.
func DisplayName(internal string) string {
	if i := strings.LastIndex(internal, renameMark); i > 0 {
		return internal[:i]
	}
	return internal
}

// planRenames decides the interpreter names of the types this cell uses:
// the session's current names, and a new name for each type the cell
// declares that an earlier cell already declared.
func (cx *cellScope) planRenames(pieces []*piece) {
	cx.renames, cx.newNames = map[string]string{}, map[string]string{}
	for _, p := range pieces {
		ast.Inspect(p.file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if internal, ok := cx.env.TypeName(id.Name); ok && internal != id.Name {
					cx.renames[id.Name] = internal
				}
			}
			return true
		})
	}
	for _, p := range pieces {
		if p.kind != KindDecl {
			continue
		}
		for _, d := range p.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range g.Specs {
				ts, ok := sp.(*ast.TypeSpec)
				if !ok {
					continue
				}
				name := ts.Name.Name
				internal, existed := cx.env.TypeName(name)
				if !existed {
					continue
				}
				version := 1
				if i := strings.LastIndex(internal, renameMark); i >= 0 {
					version, _ = strconv.Atoi(internal[i+len(renameMark):])
				}
				next := fmt.Sprintf("%s%s%d", name, renameMark, version+1)
				cx.renames[name] = next
				cx.newNames[name] = next
			}
		}
	}
}

// renameTypes registers the edits that refer to renamed types by their
// interpreter names: every identifier naming the package-level type, but not
// field names, selectors or composite-literal keys.
func (cx *cellScope) renameTypes(p *piece, ed *edits) {
	if len(cx.renames) == 0 {
		return
	}
	skip := map[*ast.Ident]bool{}
	ast.Inspect(p.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true
			}
		case *ast.Field:
			for _, id := range n.Names {
				skip[id] = true
			}
		case *ast.FuncDecl:
			skip[n.Name] = true
		}
		return true
	})
	ast.Inspect(p.file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || skip[id] {
			return true
		}
		internal, ok := cx.renames[id.Name]
		if !ok {
			return true
		}
		if id.Obj != nil {
			if _, isType := id.Obj.Decl.(*ast.TypeSpec); !isType {
				return true // a local name that shadows the type
			}
		}
		ed.add(ed.off(id.Pos()), ed.off(id.End()), internal)
		return true
	})
}
