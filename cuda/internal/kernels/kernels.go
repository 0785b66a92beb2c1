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
