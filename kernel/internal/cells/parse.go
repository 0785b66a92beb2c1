package cells

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
	"github.com/goaccel/goaccel/kernel/internal/srcmap"
)

// Kind says how the session evaluates a Unit.
type Kind int

const (
	// KindImport is the cell's imports, written and automatic, merged in one unit.
	KindImport Kind = iota
	// KindDecl is one or more package-level declarations (func, type, var, const).
	KindDecl
	// KindStmt is one or more statements evaluated at the session's top level.
	KindStmt
	// KindExpr is the cell's final bare expression, whose value is the cell's result.
	KindExpr
)

// String names the kind: "import", "decl", "stmt" or "expr".
func (k Kind) String() string {
	return [...]string{"import", "decl", "stmt", "expr"}[k]
}

// Unit is a piece of a cell that one yaegi evaluation runs.
type Unit struct {
	Kind Kind
	// Text is the unit's Go source after rewriting. Its first character sits at
	// Line:Col of the cell, and every later line of Text is the same line of
	// the cell (rewrites add code on the lines they rewrite).
	Text      string
	Line, Col int
	// Map maps positions in Text to the cell's lines and columns (its
	// origins name no cell: the session knows which it is).
	Map *srcmap.Map
	// Names are the package-level names the unit declares (funcs, types,
	// vars, consts, and the left side of a top-level :=).
	Names []string
	// Kinds says what each name is: "var", "const", "func", "generic func" or "type".
	Kinds map[string]string
	// Methods lists the methods the unit declares, by receiver base type name (T for *T and T[K]).
	Methods map[string][]string
	// Call is set for a KindExpr unit whose expression is a function call.
	Call *Call

	mt mtext // Text with its origins, until Parse finishes
}

// Call describes a final expression that is a call.
type Call struct {
	Fun     string // source of the called expression, e.g. "fmt.Println"
	Builtin bool   // Fun is a builtin such as println or delete
	Simple  bool   // Fun is an identifier or a selector chain: evaluating it has no side effects
}

// Program is a parsed and rewritten cell.
type Program struct {
	Units []Unit
	// AutoImports are the import paths added because the cell used the package without importing it.
	AutoImports []string
	// Renamed maps each type this cell redefines to the new name it has in
	// the interpreter: yaegi v0.16 keeps the first definition of a type, so a
	// redefinition is a new type under a hidden name, and later cells refer
	// to it through Env.TypeName.
	Renamed map[string]string
	// Undefined are identifiers the cell uses that nothing declares: not the
	// cell, not the session, not a package or a predeclared name. yaegi
	// reports some of them with a misleading message ("constant definition
	// loop"), so the session names them itself.
	Undefined []string
	// TypeErrors are what go/types found wrong, at cell positions.
	TypeErrors []TypeError
	// Decls are the cell's package-level func, method, type, const and var
	// declarations in the order written, with the user's text (before any
	// rewrite). Imports and statements (top-level := included) are not
	// declarations. A grouped type or var declaration is one Decl per spec
	// (each stands alone at the package level); a grouped const declaration
	// stays whole, since iota and implicit repetition tie its specs together.
	Decls []Decl
	// MainLine is the line of the cell's func main() (0: none): a cell that
	// declares main runs it at its end, as a program would.
	MainLine int
}

// SyntaxError is a cell that go/parser rejects, at a cell position.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error formats the error with its cell position.
func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg) }

// UnsupportedError is valid Go that goaccel cannot run in yaegi.
type UnsupportedError struct {
	Line, Col int
	Construct string // what the user wrote, e.g. "return inside a range-over-function loop"
	Hint      string // what to write instead
}

// Error names the construct, its position and what to write instead.
func (e *UnsupportedError) Error() string {
	s := fmt.Sprintf("line %d:%d: %s is not supported by the interpreter", e.Line, e.Col, e.Construct)
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

const (
	declPrefix = "package main;"
	stmtPrefix = "package main; func _() {"
)

// piece is one classified top-level span with its parsed AST.
type piece struct {
	kind Kind
	span span
	tail bool      // the statements from a top-level return or goto on (tail.go)
	file *ast.File // the parse of prefix+padding+text
	base int       // offset in file's source where the cell's byte 0 would be
	fset *token.FileSet
}

// Parse splits a cell into units, rewrites what yaegi cannot run and adds
// missing standard-library imports. env may be nil.
func Parse(src string, env Env) (*Program, error) { return parse(src, env, false, false) }

// ParseMarked is Parse that also sets LineVar before every statement nested
// in the cell's top-level statements, for panic line numbers.
func ParseMarked(src string, env Env) (*Program, error) { return parse(src, env, true, false) }

// ParseProgram parses the declarations of a worker program (env: the
// interpreter's packages, for types; nil: none) and sets LineVar before every
// statement in function bodies, closures included (but not a closure a go
// statement starts, which would race with the others): an interpreted worker
// reports a panic at the line it happened on.
func ParseProgram(src string, env Env) (*Program, error) { return parse(src, env, false, true) }

func parse(src string, env Env, markLines, markFuncs bool) (*Program, error) {
	if env == nil {
		env = emptyEnv{}
	}
	spans, err := splitTopLevel(src)
	if err != nil {
		return nil, syntaxError(err)
	}
	sc := env.Types()
	if sc == nil {
		sc = celltypes.NewScope(nil, nil) // the cell checked on its own
	}
	var pieces []*piece
	var decls []Decl
	for i, sp := range spans {
		p, err := classify(sc.FileSet(), src, sp, i == len(spans)-1)
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, p)
		decls = append(decls, pieceDecls(src, p)...) // before any rewrite
	}
	if pieces, err = mergeTail(sc.FileSet(), src, spans, pieces); err != nil {
		return nil, err
	}
	cx := newCellScope(env, src)
	cx.markLines, cx.markFuncs = markLines, markFuncs
	cx.planRenames(pieces)
	var imports []string
	for _, p := range pieces {
		if p.kind == KindImport {
			for _, d := range p.file.Decls {
				if g, ok := d.(*ast.GenDecl); ok {
					for _, s := range g.Specs {
						is := s.(*ast.ImportSpec)
						imports = append(imports, importText(is))
						cx.addImport(is)
					}
				}
			}
			continue
		}
		var u Unit
		u.Kinds, u.Methods = map[string]string{}, map[string][]string{}
		cx.unitNames(p, &u)
		for _, n := range u.Names {
			cx.names[n] = true
		}
	}
	prog := &Program{Renamed: cx.newNames, Decls: decls, MainLine: mainLine(src, pieces)}
	auto := cx.autoImports(pieces)
	visible := cx.visibleImports(auto)
	prior := priorTypes(sc, pieces)
	cx.tailPrior = tailPrior(sc, pieces)
	prog.TypeErrors = cx.typeCheck(sc, pieces, visible)
	if err := cx.retypedAfterUse(pieces, prior); err != nil {
		return nil, err
	}
	if err := cx.genericResultsUsed(pieces); err != nil {
		return nil, err
	}
	cx.namer = celltypes.NewNamer(cx.pkg, visible, func(name string) string {
		if internal, ok := cx.renames[name]; ok {
			return internal
		}
		return name
	})
	var body []Unit
	var ds []deps
	for _, p := range pieces {
		if p.kind == KindImport {
			continue
		}
		u, err := cx.unit(src, p)
		if err != nil {
			return nil, err
		}
		body = append(body, u)
		ds = append(ds, unitDeps(u, p))
	}
	sorted := make([]Unit, 0, len(body))
	for _, i := range order(body, ds) {
		sorted = append(sorted, body[i])
	}
	for _, path := range auto {
		imports = append(imports, strconv.Quote(path))
	}
	for _, im := range cx.namer.Added() {
		imports = append(imports, im[0]+" "+strconv.Quote(im[1]))
		auto = append(auto, im[1])
	}
	prog.AutoImports = auto
	prog.Undefined = cx.undefined(pieces, auto)
	if len(imports) > 0 {
		text := "import (" + strings.Join(imports, "; ") + ")"
		prog.Units = append(prog.Units, Unit{Kind: KindImport, Text: text, Line: 1, Col: 1, mt: gen(text)})
	}
	prog.Units = append(prog.Units, merge(sorted)...)
	for i := range prog.Units {
		u := &prog.Units[i]
		u.Text, u.Map = u.mt.s, u.mt.srcMap(src)
	}
	return prog, nil
}

// mainLine returns the line of the cell's func main(), a program's main
// function, or 0.
func mainLine(src string, pieces []*piece) int {
	for _, p := range pieces {
		if p.kind != KindDecl {
			continue
		}
		for _, d := range p.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Type.TypeParams == nil && fd.Type.Params.NumFields() == 0 && fd.Type.Results.NumFields() == 0 {
				line, _ := lineCol(src, p.fset.Position(fd.Pos()).Offset-p.base)
				return line
			}
		}
	}
	return 0
}

// visibleImports lists the imports the cell's code sees: the session's,
// the cell's own (which win on a clash) and the automatic ones.
func (cx *cellScope) visibleImports(auto []string) [][2]string {
	byName := map[string]string{}
	for _, im := range cx.env.Imports() {
		byName[im[0]] = im[1]
	}
	for n, p := range cx.imports {
		byName[n] = p
	}
	for _, p := range auto {
		byName[path.Base(p)] = p
		if n := cx.env.PackageName(p); n != "" {
			byName[n] = p
		}
	}
	out := make([][2]string, 0, len(byName))
	for n, p := range byName {
		out = append(out, [2]string{n, p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func importText(is *ast.ImportSpec) string {
	if is.Name != nil {
		return is.Name.Name + " " + is.Path.Value
	}
	return is.Path.Value
}

// classify parses one span into fset and decides its kind.
func classify(fset *token.FileSet, src string, sp span, last bool) (*piece, error) {
	// A package-level var is run as a statement: yaegi v0.16 fails some var
	// declarations in declaration mode ("variable definition loop" for
	// var e any = x) and still makes them package-level in statement mode.
	switch sp.first {
	case token.IMPORT, token.TYPE, token.CONST:
		kind := KindDecl
		if sp.first == token.IMPORT {
			kind = KindImport
		}
		return parsePiece(fset, src, sp, kind, declPrefix, "")
	case token.FUNC:
		if sp.second == token.IDENT || sp.second == token.LPAREN {
			p, err := parsePiece(fset, src, sp, KindDecl, declPrefix, "")
			if err == nil {
				return p, nil
			}
			if sp.second == token.IDENT {
				return nil, err
			}
		}
	}
	p, err := parsePiece(fset, src, sp, KindStmt, stmtPrefix, "\n}")
	if err != nil {
		return nil, err
	}
	if last {
		body := p.file.Decls[0].(*ast.FuncDecl).Body.List
		if len(body) == 1 {
			if _, ok := body[0].(*ast.ExprStmt); ok {
				p.kind = KindExpr
			}
		}
	}
	return p, nil
}

// parsePiece parses src[sp] placed at its own offset behind prefix, so that
// positions in the AST convert to cell offsets by subtracting base.
func parsePiece(fset *token.FileSet, src string, sp span, kind Kind, prefix, suffix string) (*piece, error) {
	var b strings.Builder
	b.WriteString(prefix)
	base := b.Len()
	// Keep the text's line and byte column: blank out everything before it.
	for i := 0; i < sp.start; i++ {
		if src[i] == '\n' {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(src[sp.start:sp.end])
	b.WriteString(suffix)
	f, err := parser.ParseFile(fset, "cell", b.String(), parser.ParseComments)
	if err != nil {
		return nil, clampToCell(syntaxErrorAt(err, prefix), src)
	}
	return &piece{kind: kind, span: sp, file: f, base: base, fset: fset}, nil
}

// clampToCell moves an error that the parse wrapper's closing lines caught
// to the end of the cell, where the user's text stopped.
func clampToCell(err error, src string) error {
	se, ok := err.(*SyntaxError)
	if !ok {
		return err
	}
	lines := strings.Split(src, "\n")
	if se.Line > len(lines) {
		se.Line = len(lines)
		se.Col = len(lines[len(lines)-1]) + 1
	}
	for _, found := range []string{"found '}'", "found 'EOF'", "found newline"} {
		if strings.HasSuffix(se.Msg, found) && se.Line == len(lines) && se.Col > len(lines[len(lines)-1]) {
			se.Msg = strings.TrimSuffix(se.Msg, found) + "found the end of the cell"
		}
	}
	return se
}

// syntaxError converts a go/scanner or go/parser error list on the bare cell.
func syntaxError(err error) error {
	return syntaxErrorAt(err, "")
}

// syntaxErrorAt converts an error on prefix+cell into cell coordinates: the
// prefix is on line 1, so only columns on line 1 shift.
func syntaxErrorAt(err error, prefix string) error {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		sort.Sort(list)
		e := list[0]
		line, col := e.Pos.Line, e.Pos.Column
		if line == 1 {
			col -= len(prefix)
			if col < 1 {
				col = 1
			}
		}
		return &SyntaxError{Line: line, Col: col, Msg: e.Msg}
	}
	return &SyntaxError{Line: 1, Col: 1, Msg: err.Error()}
}

// Wrap returns u with prefix and suffix around its text: code the session
// adds, standing for the unit's start (__goaccel_out := expr).
func (u Unit) Wrap(prefix, suffix string) Unit {
	at := srcmap.Origin{Line: u.Line, Col: u.Col}
	var b srcmap.Builder
	b.Insert(prefix, at)
	if u.Map != nil {
		b.Append(u.Map, 0)
	} else {
		b.Insert(u.Text, at)
	}
	b.Insert(suffix, at)
	u.Map = b.Map("")
	u.Text = u.Map.Text()
	return u
}

// Replace returns u with text instead of its own, standing for the unit's
// start (code the session evaluates in its place).
func (u Unit) Replace(text string) Unit {
	var b srcmap.Builder
	b.Insert(text, srcmap.Origin{Line: u.Line, Col: u.Col})
	u.Map = b.Map("")
	u.Text = text
	return u
}
