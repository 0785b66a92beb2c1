// Package stats is a small local module that notebooks/go_language.ipynb
// imports with `%go mod use notebooklib`, the way a library developed beside
// a notebook is.
package stats

import (
	"fmt"
	"slices"
)

// Summary describes a sample.
type Summary struct {
	N         int
	Mean, Max float64
}

// Describe summarizes xs (the zero Summary when xs is empty).
func Describe(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return Summary{N: len(xs), Mean: sum / float64(len(xs)), Max: slices.Max(xs)}
}

// String formats the summary.
func (s Summary) String() string {
	return fmt.Sprintf("n=%d mean=%.2f max=%.2f", s.N, s.Mean, s.Max)
}
