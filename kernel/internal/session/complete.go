package session

import (
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Complete returns the completions of the identifier before cursor (in code
// points, as Jupyter counts) and the code-point range they replace: package
// members after "pkg.", fields and methods after "v.", otherwise the
// session's names, imported and importable packages, builtins and keywords.
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	off := byteOffset(code, cursor)
	before := code[:off]
	prefix := identSuffix(before)
	start = cursor - utf8.RuneCountInString(prefix)
	end = cursor
	var cands []string
	if dot := before[:len(before)-len(prefix)]; strings.HasSuffix(dot, ".") {
		cands = s.members(selectorSuffix(dot[:len(dot)-1]))
	} else {
		cands = s.scopeNames(code[:off-len(prefix)] + code[off:])
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] && !hidden(c) {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return matches, start, end
}

// byteOffset converts a code-point offset into a byte offset of s.
func byteOffset(s string, cursor int) int {
	if cursor < 0 {
		return 0
	}
	i := 0
	for n := 0; n < cursor && i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identSuffix returns the identifier characters at the end of s.
func identSuffix(s string) string {
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !isIdentRune(r) {
			break
		}
		i -= size
	}
	return s[i:]
}

// selectorSuffix returns the a.b.c chain at the end of s.
func selectorSuffix(s string) string {
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if !isIdentRune(r) && r != '.' {
			break
		}
		i -= size
	}
	return strings.TrimLeft(s[i:], ".")
}

// members lists what can follow "x.": a package's exported names, or the
// fields and methods of a session variable's value.
func (s *Session) members(x string) []string {
	if x == "" {
		return nil
	}
	if !strings.Contains(x, ".") {
		if p := s.packagePathOf(x); p != "" {
			return s.pkgs.members(p)
		}
	}
	parts := strings.Split(x, ".")
	if out, ok := s.typedMembers(parts); ok {
		return out
	}
	v, ok := s.valueOf(parts[0])
	if !ok {
		return nil
	}
	for _, f := range parts[1:] {
		v = fieldByName(v, f)
		if !v.IsValid() {
			return nil
		}
	}
	return fieldsAndMethods(v)
}

// typedMembers lists the fields and methods of a session name's selector
// chain through go/types (cells are package main: unexported ones too); ok
// is false when go/types does not know the name's type.
func (s *Session) typedMembers(parts []string) ([]string, bool) {
	t := s.typeOf(parts[0])
	if t == nil || s.kindOf(parts[0]) != "var" && s.kindOf(parts[0]) != "const" {
		return nil, false
	}
	pkg := s.types.Package()
	for _, f := range parts[1:] {
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, f)
		v, ok := obj.(*types.Var)
		if !ok {
			return nil, false
		}
		t = v.Type()
	}
	var out []string
	ms := types.NewMethodSet(t)
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for i := 0; i < ms.Len(); i++ {
		out = append(out, ms.At(i).Obj().Name())
	}
	st := t
	if p, ok := t.Underlying().(*types.Pointer); ok {
		st = p.Elem()
	}
	if str, ok := st.Underlying().(*types.Struct); ok {
		for i := 0; i < str.NumFields(); i++ {
			out = append(out, str.Field(i).Name())
		}
	}
	return out, true
}

// packagePathOf returns the import path a name refers to as a package: an
// import of the session, or any package cells can import (auto-import).
func (s *Session) packagePathOf(name string) string {
	if sym, ok := s.symbol(name); ok {
		return sym.Path // "" for a name that is not an import
	}
	if _, isVar := s.valueOf(name); isVar {
		return ""
	}
	return s.pkgs.path(name)
}

// fieldByName follows one field of a (pointer to) struct value.
func fieldByName(v reflect.Value, name string) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	if f := v.FieldByName(name); f.IsValid() {
		return f
	}
	// yaegi stores a cell struct's unexported field f as exported Xf.
	return v.FieldByName("X" + name)
}

// fieldsAndMethods lists a value's exported fields and methods; fields
// yaegi renamed from unexported (Xname) are listed under their own name.
func fieldsAndMethods(v reflect.Value) []string {
	if !v.IsValid() {
		return nil
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	var out []string
	t := v.Type()
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			name := t.Field(i).Name
			if len(name) > 1 && name[0] == 'X' && unicode.IsLower(rune(name[1])) {
				name = name[1:]
			}
			out = append(out, name)
		}
		if pt := reflect.PointerTo(t); pt != v.Type() {
			for i := 0; i < pt.NumMethod(); i++ {
				out = append(out, pt.Method(i).Name)
			}
		}
	}
	return out
}

// scopeNames lists every name that may start an identifier here.
func (s *Session) scopeNames(code string) []string {
	var out []string
	for n := range s.globals() {
		out = append(out, n)
	}
	s.mu.Lock()
	for _, n := range s.declared.Names() {
		if !strings.Contains(n, ".") {
			out = append(out, n)
		}
	}
	s.mu.Unlock()
	out = append(out, s.pkgs.names()...)
	for n := range universeNames {
		out = append(out, n)
	}
	for i := token.BREAK; i <= token.VAR; i++ {
		if i.IsKeyword() {
			out = append(out, i.String())
		}
	}
	// Names the cell itself declares before they ever ran.
	for _, f := range strings.FieldsFunc(code, func(r rune) bool { return !isIdentRune(r) }) {
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsLetter(r) || r == '_' {
			out = append(out, f)
		}
	}
	return out
}

var universeNames = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true, "bool": true, "byte": true, "complex64": true,
	"complex128": true, "error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true,
	"uint32": true, "uint64": true, "uintptr": true, "any": true, "true": true, "false": true, "nil": true, "iota": true,
}
