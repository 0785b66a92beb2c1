package std

import (
	_ "embed"
	"reflect"
	"strings"
)

// Symbols maps "importpath/name" to the package's exported symbols, in the
// form interp.Interpreter.Use takes. The generated files fill it.
var Symbols = map[string]map[string]reflect.Value{}

//go:embed packages.txt
var packageList string

// Packages returns the import paths listed in packages.txt, the standard
// packages that have a table.
func Packages() []string {
	var out []string
	for _, l := range strings.Split(packageList, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
