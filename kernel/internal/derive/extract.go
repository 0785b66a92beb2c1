package derive

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/traefik/yaegi/extract"
)

// Extract writes into dir the yaegi symbol tables of packages, as `yaegi
// extract` would, in package main: a symbols_*.go file a package, filling
// main's Symbols. It must run with dir as the working directory, where the
// packages resolve through dir's go.mod.
func Extract(dir string, packages []string) error {
	ext := extract.Extractor{Dest: "main"}
	names := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	for _, p := range packages {
		var buf bytes.Buffer
		ipp, err := ext.Extract(p, "", &buf)
		if err != nil {
			return fmt.Errorf("generate the symbol table of %s: %w", p, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "symbols_"+names.Replace(ipp)+".go"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
