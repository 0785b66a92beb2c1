// Package kernels holds goaccel's CUDA kernels: CUDA C under src/, compiled to PTX for
// compute_80 by genptx.sh (`make ptx`) and embedded, so users need no CUDA toolkit; the driver
// JIT-compiles the PTX for the GPU it runs on (sm_80, sm_90, …) when the module is loaded.
package kernels

import (
	_ "embed"
	"strings"
)

// PTX is the module's PTX text.
//
//go:embed kernels.ptx
var PTX []byte

// SourcesHash returns the sources hash recorded on the PTX's first line.
func SourcesHash() string {
	first, _, _ := strings.Cut(string(PTX), "\n")
	return strings.TrimPrefix(first, "// goaccel kernels, sources sha256 ")
}
