// Package stdgeneric makes the generic standard packages complete in the
// interpreter. yaegi's symbol tables cannot hold generic functions, and its
// own interpreted copies of slices, maps and cmp stop at Go 1.20's functions
// (no slices.Sort, slices.Max, maps.Keys, ...), so Load compiles the rest
// from source into an interpreter, with package iter, whose standard library
// surface is Go 1.22's.
//
// The sorting functions and Min and Max of slices of ordered elements call
// compiled code (this package's SortOrdered, MinIndex, MaxIndex), so sorting
// a million floats in a cell takes what it takes in compiled Go; the
// comparison functions of SortFunc and friends stay interpreted.
//
//	i := interp.New(interp.Options{})
//	_ = i.Use(stdlib.Symbols)
//	if err := stdgeneric.Load(i); err != nil { ... }
//	i.Eval(`import "slices"; slices.Max([]int{3, 1, 2})`) // 3
package stdgeneric
