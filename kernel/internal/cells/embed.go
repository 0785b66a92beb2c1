package cells

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// embeds rewrites the variables a //go:embed line initializes: a string or
// []byte variable gets the file's contents when the cell runs
// (__goaccel.Embed), read relative to the working directory, the
// notebook's; an embed.FS, which only the compiler can make, is refused.
// yaegi v0.16 ignores the line and leaves the variable empty.
func (cx *cellScope) embeds(p *piece, ed *edits) error {
	var err error
	ast.Inspect(p.file, func(n ast.Node) bool {
		g, ok := n.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || err != nil {
			return err == nil
		}
		for i, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			doc := vs.Doc
			if doc == nil && i == 0 {
				doc = g.Doc
			}
			patterns, at := embedPatterns(doc)
			if at == token.NoPos && i == 0 && ed.off(g.Pos()) == p.span.start {
				// The lines above a top-level var, outside the piece.
				patterns, at = cx.embedLinesAbove(p)
			}
			if at == token.NoPos {
				continue
			}
			if err = cx.embedSpec(vs, patterns, at, ed); err != nil {
				return false
			}
		}
		return true
	})
	return err
}

// embedPatterns returns the patterns of the //go:embed lines of doc and the
// position of the first.
func embedPatterns(doc *ast.CommentGroup) ([]string, token.Pos) {
	if doc == nil {
		return nil, token.NoPos
	}
	var patterns []string
	at := token.NoPos
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		if at == token.NoPos {
			at = c.Pos()
		}
		for _, f := range strings.Fields(rest) {
			if u, err := strconv.Unquote(f); err == nil {
				f = u
			}
			patterns = append(patterns, f)
		}
	}
	return patterns, at
}

// embedLinesAbove returns the patterns of the //go:embed comment lines
// right above piece p in the cell, and a position on the first.
func (cx *cellScope) embedLinesAbove(p *piece) ([]string, token.Pos) {
	lines := strings.Split(cx.src[:p.span.start], "\n")
	lines = lines[:len(lines)-1] // the piece's own line, before it
	var patterns []string
	first := -1
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "//") {
			break
		}
		if rest, ok := strings.CutPrefix(l, "//go:embed"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			ps, _ := embedPatterns(&ast.CommentGroup{List: []*ast.Comment{{Text: l}}})
			patterns = append(ps, patterns...)
			first = i
		}
	}
	if first < 0 {
		return nil, token.NoPos
	}
	off := 0
	for _, l := range lines[:first] {
		off += len(l) + 1
	}
	return patterns, p.file.FileStart + token.Pos(p.base+off+strings.Index(lines[first], "//"))
}

func (cx *cellScope) embedSpec(vs *ast.ValueSpec, patterns []string, at token.Pos, ed *edits) error {
	typ := ""
	if vs.Type != nil {
		typ = ed.source(ed.off(vs.Type.Pos()), ed.off(vs.Type.End()))
	}
	switch {
	case typ == "embed.FS":
		return cx.unsupported(ed, at, "//go:embed of an embed.FS",
			"only the Go compiler can make an embed.FS; read the files with os.ReadFile, or use os.DirFS(dir), an fs.FS")
	case typ != "string" && typ != "[]byte":
		return cx.unsupported(ed, at, "//go:embed of a variable of type "+typ, "a //go:embed variable is a string, a []byte or an embed.FS")
	case len(vs.Names) != 1 || len(vs.Values) > 0:
		return cx.unsupported(ed, at, "//go:embed of several variables or of an initialized one", "")
	case len(patterns) != 1:
		return cx.unsupported(ed, at, "//go:embed of several patterns for a "+typ, "a string or []byte takes the one file its pattern names")
	}
	value := "__goaccel.Embed(" + strconv.Quote(patterns[0]) + ")"
	if typ == "string" {
		value = "string(" + value + ")"
	}
	end := ed.off(vs.Type.End())
	ed.add(end, end, " = "+value)
	return nil
}
