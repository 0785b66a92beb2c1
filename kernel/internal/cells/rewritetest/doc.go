// Package rewritetest reads the golden files of the cell rewrites
// (kernel/internal/cells/testdata/rewrite/*.go), which the cells test checks
// the rewritten code against and the session test
// (kernel/internal/session/rewrite_test.go) runs for their output, as
// yaegi's _test/*.go files are: one file per case, the expectations in its
// closing comments.
//
// A file is the cell, optionally after a "// Session:" comment whose
// tab-indented lines ("//\tn := 3") are an earlier cell, then a
// "// Rewritten:" comment holding the units the cell becomes (each headed
// "-- KIND, line N --"), then optionally "// Output:" with what running it
// prints and shows.
//
//	cases, err := rewritetest.Load("testdata/rewrite")
//	for _, c := range cases {
//		// parse c.Session, then c.Cell; compare with c.Rewritten
//	}
//
// Files:
//   - rewritetest.go: Case, Load and Write (which rewrites a file's
//     Rewritten section, for updating the golden files).
package rewritetest
