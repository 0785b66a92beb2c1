package cells

import (
	"go/ast"
	"strconv"
)

// launcherPath is the package whose Launch and LaunchContext take the
// function a notebook launches on workers.
const launcherPath = "github.com/goaccel/goaccel/notebook_launcher"

// rewriteLaunch passes the name of the function given to
// notebook_launcher.Launch along with it: Launch(train, …) becomes
// Launch(__goaccel.Named("train", train), …). Workers rebuild a launched
// function from its declaration, and an interpreted function value does not
// say which declaration it came from. Anything but a bare identifier (a
// closure, a method value, a parameter) is left alone for Launch to refuse.
func (cx *cellScope) rewriteLaunch(call *ast.CallExpr, ed *edits) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || pkg.Obj != nil || cx.importPath(pkg.Name) != launcherPath {
		return
	}
	at := 0
	switch sel.Sel.Name {
	case "Launch":
	case "LaunchContext":
		at = 1
	default:
		return
	}
	if len(call.Args) <= at {
		return
	}
	fn, ok := call.Args[at].(*ast.Ident)
	if !ok || fn.Obj != nil && fn.Obj.Kind != ast.Fun {
		return
	}
	ed.add(ed.off(fn.Pos()), ed.off(fn.End()), "__goaccel.Named("+strconv.Quote(fn.Name)+", "+fn.Name+")")
}

// importPath returns the import path package name refers to in this cell.
func (cx *cellScope) importPath(name string) string {
	if p, ok := cx.imports[name]; ok {
		return p
	}
	if p := cx.env.ImportPath(name); p != "" {
		return p
	}
	if cx.env.Defined(name) {
		return ""
	}
	return cx.env.PackagePath(name) // an automatic import
}
