package cells

// Env is what the session knows from earlier cells. Parse uses it to tell
// session names from packages to import and to find the types that rewrites
// need. A nil Env is an empty session.
type Env interface {
	// Defined reports whether name is a variable, constant, function, type or
	// package name that an earlier cell declared or imported.
	Defined(name string) bool
	// PackagePath returns the import path of a package that cells may import
	// under name (e.g. "strings" → "strings"), or "" when there is none.
	PackagePath(name string) string
	// TypeOf returns Go source for the type of a session variable or
	// function (e.g. "[]float64", "func(n int) func(func(int) bool)"), or ""
	// when unknown. name may be a selector chain: "pkg.Func", "v.Field",
	// "v.Method" (a method's type is its func type without the receiver).
	TypeOf(name string) string
	// TypeName reports whether an earlier cell declared type name, and the
	// name the interpreter knows it by (different after a redefinition).
	TypeName(name string) (internal string, ok bool)
}

type emptyEnv struct{}

func (emptyEnv) Defined(string) bool       { return false }
func (emptyEnv) PackagePath(string) string { return "" }
func (emptyEnv) TypeOf(string) string      { return "" }

func (emptyEnv) TypeName(string) (string, bool) { return "", false }
