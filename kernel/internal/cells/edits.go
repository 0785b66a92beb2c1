package cells

import (
	"go/token"
	"sort"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/srcmap"
)

// mtext is rewritten code that remembers where each piece came from: bytes
// copied from the cell, and code a rewrite wrote, which stands for the
// place in the cell its edit replaced.
type mtext struct {
	s    string
	segs []mseg
}

// mseg says that bytes [off, off+n) of an mtext are the cell's bytes from
// src on (copied), or stand for cell byte src; src is -1 for code a rewrite
// wrote whose edit has not been placed yet.
type mseg struct {
	off, n, src int
	copied      bool
}

// gen is code a rewrite writes.
func gen(s string) mtext {
	if s == "" {
		return mtext{}
	}
	return mtext{s: s, segs: []mseg{{off: 0, n: len(s), src: -1}}}
}

// cat joins pieces of a rewrite: strings are code the rewrite writes,
// mtexts keep their origins.
func cat(parts ...any) mtext {
	var out mtext
	var b strings.Builder
	for _, p := range parts {
		t, ok := p.(mtext)
		if !ok {
			t = gen(p.(string))
		}
		for _, sg := range t.segs {
			sg.off += b.Len()
			out.segs = append(out.segs, sg)
		}
		b.WriteString(t.s)
	}
	out.s = b.String()
	return out
}

// anchored returns t with the code not yet placed standing for cell byte at.
func (t mtext) anchored(at int) mtext {
	segs := make([]mseg, len(t.segs))
	for i, sg := range t.segs {
		if sg.src < 0 {
			sg.src = at
		}
		segs[i] = sg
	}
	return mtext{s: t.s, segs: segs}
}

// srcMap converts t's origins, cell byte offsets, into cell lines and
// columns (cell 0: the session names the cell).
func (t mtext) srcMap(cell string) *srcmap.Map {
	var b srcmap.Builder
	at := 0
	for _, sg := range t.segs {
		b.Generated(t.s[at:sg.off])
		line, col := lineCol(cell, max(sg.src, 0))
		o := srcmap.Origin{Line: line, Col: col}
		if sg.copied {
			b.Copy(t.s[sg.off:sg.off+sg.n], o)
		} else {
			b.Insert(t.s[sg.off:sg.off+sg.n], o)
		}
		at = sg.off + sg.n
	}
	b.Generated(t.s[at:])
	return b.Map("")
}

// edit replaces cell bytes [start, end) with text.
type edit struct {
	start, end int
	text       mtext
	used       bool // consumed into an enclosing edit's text
}

// edits collects the rewrites of one piece, in cell offsets.
type edits struct {
	src  string
	base int // file offset of cell byte 0
	fset *token.FileSet
	list []*edit
}

// off converts a position in the piece's AST to a cell offset.
func (e *edits) off(p token.Pos) int { return e.fset.Position(p).Offset - e.base }

// add registers an edit; parts are as cat takes them.
func (e *edits) add(start, end int, parts ...any) {
	e.list = append(e.list, &edit{start: start, end: end, text: cat(parts...)})
}

// textWith returns cell bytes [start, end) with the unused edits that lie
// inside applied, and marks those edits used. Rewrites register inner edits
// before outer ones, so an outer edit built from textWith includes them.
func (e *edits) textWith(start, end int) mtext {
	var in []*edit
	for _, ed := range e.list {
		if !ed.used && ed.start >= start && ed.end <= end {
			in = append(in, ed)
		}
	}
	sort.SliceStable(in, func(i, j int) bool { return in[i].start < in[j].start })
	var parts []any
	at := start
	for _, ed := range in {
		if ed.start < at { // overlaps an edit already applied: keep the first
			continue
		}
		parts = append(parts, e.copied(at, ed.start), ed.text.anchored(ed.start))
		at = ed.end
		ed.used = true
	}
	parts = append(parts, e.copied(at, end))
	return cat(parts...)
}

// copied is cell bytes [start, end) as they are.
func (e *edits) copied(start, end int) mtext {
	if start >= end {
		return mtext{}
	}
	return mtext{s: e.src[start:end], segs: []mseg{{off: 0, n: end - start, src: start, copied: true}}}
}

// source is cell bytes [start, end) as text (for names and messages).
func (e *edits) source(start, end int) string { return e.src[start:end] }
