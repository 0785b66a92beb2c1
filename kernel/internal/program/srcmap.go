package program

import "github.com/goaccel/goaccel/kernel/internal/srcmap"

// Origin is a position in the notebook: a cell, named by its execution
// count (the N of In [N]), and a 1-based line and column in it.
type Origin = srcmap.Origin

// SourceMap maps positions in notebook.go back to the cells the
// declarations came from (goaccel's one source map, package srcmap). It is
// built while the file is written, one copied segment per declaration.
type SourceMap = srcmap.Map

// Positions lists the (line, column) pairs of the positions in notebook.go
// that msg mentions, in order (column 0 when absent).
func Positions(msg string) [][2]int { return srcmap.Positions(msg, File) }
