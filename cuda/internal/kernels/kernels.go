package kernels

import (
	"embed"
	"strings"
)

// PTX is the module's PTX text.
//
//go:embed kernels.ptx
var PTX []byte

// Sources holds the CUDA C sources the PTX is compiled from (src/), for the emulated device of
// the tests, which compiles them for the CPU; programs that never read it do not carry it.
//
//go:embed src
var Sources embed.FS

// SourcesHash returns the sources hash recorded on the PTX's first line.
func SourcesHash() string {
	first, _, _ := strings.Cut(string(PTX), "\n")
	return strings.TrimPrefix(first, "// goaccel kernels, sources sha256 ")
}
