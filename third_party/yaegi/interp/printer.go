package interp

// goaccel: fmt's and log's printing functions see interpreted values as Go
// shows them. The reflect type of an interpreted value has no name (reflect
// cannot make named types) and none of the value's interpreted methods, so
// compiled fmt printed %T and %#v of a cell's point as struct { x int; y int },
// skipped the String method of a []Celsius's elements, and printed the
// interpreter's own boxes for interface values inside containers. Such
// arguments are handed to fmt as a printable, a fmt.Formatter that prints
// the value with its interpreted type: names as declared, methods called
// where fmt would call them (Formatter, GoStringer, error, Stringer, on
// values fmt can reach: not through unexported fields), the rest as fmt's
// printValue does, basic values formatted by fmt itself.

import (
	"cmp"
	"fmt"
	"log"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

var errorRType = reflect.TypeOf((*error)(nil)).Elem()

// printKind tells how a printing function takes its arguments.
type printKind struct {
	first  int  // index of the first argument to print (after a writer, a buffer, a format)
	format int  // index of the format string (-1: none)
	spaced bool // Print-like: a space between operands when neither is a string
	errorf bool // fmt.Errorf: an error argument stays an error (%w wraps it)
}

var printFuncs = map[reflect.Value]printKind{
	reflect.ValueOf(fmt.Print):    {first: 0, format: -1, spaced: true},
	reflect.ValueOf(fmt.Println):  {first: 0, format: -1},
	reflect.ValueOf(fmt.Printf):   {first: 1, format: 0},
	reflect.ValueOf(fmt.Sprint):   {first: 0, format: -1, spaced: true},
	reflect.ValueOf(fmt.Sprintln): {first: 0, format: -1},
	reflect.ValueOf(fmt.Sprintf):  {first: 1, format: 0},
	reflect.ValueOf(fmt.Fprint):   {first: 1, format: -1, spaced: true},
	reflect.ValueOf(fmt.Fprintln): {first: 1, format: -1},
	reflect.ValueOf(fmt.Fprintf):  {first: 2, format: 1},
	reflect.ValueOf(fmt.Append):   {first: 1, format: -1, spaced: true},
	reflect.ValueOf(fmt.Appendln): {first: 1, format: -1},
	reflect.ValueOf(fmt.Appendf):  {first: 2, format: 1},
	reflect.ValueOf(fmt.Errorf):   {first: 1, format: 0, errorf: true},
	reflect.ValueOf(log.Print):    {first: 0, format: -1, spaced: true},
	reflect.ValueOf(log.Println):  {first: 0, format: -1},
	reflect.ValueOf(log.Printf):   {first: 1, format: 0},
	reflect.ValueOf(log.Fatal):    {first: 0, format: -1, spaced: true},
	reflect.ValueOf(log.Fatalln):  {first: 0, format: -1},
	reflect.ValueOf(log.Fatalf):   {first: 1, format: 0},
	reflect.ValueOf(log.Panic):    {first: 0, format: -1, spaced: true},
	reflect.ValueOf(log.Panicln):  {first: 0, format: -1},
	reflect.ValueOf(log.Panicf):   {first: 1, format: 0},
}

// printCall returns how the compiled function fn prints its arguments, if
// it is one of fmt's or log's printing functions.
func (interp *Interpreter) printCall(fn reflect.Value) (printKind, bool) {
	if !fn.IsValid() || fn.Kind() != reflect.Func {
		return printKind{}, false
	}
	if k, ok := printFuncs[fn]; ok {
		return k, true
	}
	interp.mutex.RLock()
	defer interp.mutex.RUnlock()
	k, ok := interp.printFuncs[fn]
	return k, ok
}

// virtualPrint records that fn, a function of the interpreter's own
// standard library (fixStdlib), prints as orig does.
func (interp *Interpreter) virtualPrint(fn reflect.Value, orig interface{}) {
	interp.mutex.Lock()
	defer interp.mutex.Unlock()
	if interp.printFuncs == nil {
		interp.printFuncs = map[reflect.Value]printKind{}
	}
	interp.printFuncs[fn] = printFuncs[reflect.ValueOf(orig)]
}

// printable is an argument of a printing function, printed with its
// interpreted type (nil: the reflect type says all).
type printable struct {
	interp   *Interpreter
	t        *itype
	v        reflect.Value
	erroring bool // the value of a %!verb(type=value): no method called
}

// Format prints p as fmt would print a value of its Go type.
func (p printable) Format(s fmt.State, verb rune) {
	pr := &printer{interp: p.interp, s: s, verb: verb, plus: s.Flag('+'), sharp: s.Flag('#'), erroring: p.erroring}
	if verb == 'v' && pr.sharp {
		pr.sharpV = true
	}
	pr.directive = directive(s, verb)
	pr.value(p.t, p.v, 0, true)
}

// special is what p prints for a verb fmt handles before it looks at an
// operand's methods, as another operand and verb: %T the type's name, %p
// the address of a pointer, a map, a slice, a channel or a function, or
// %!p(type=value) for another value.
func (p printable) special(verb rune) (verbRewrite, bool) {
	switch verb {
	case 'T':
		return verbRewrite{operand: p.typeName(), verb: 's'}, true
	case 'p':
		t, v := p.dynamic()
		if !v.IsValid() {
			return verbRewrite{}, false
		}
		switch v.Kind() {
		case reflect.Chan, reflect.Func, reflect.Map, reflect.Ptr, reflect.Slice, reflect.UnsafePointer:
			return verbRewrite{operand: unsafe.Pointer(v.Pointer()), verb: 'p'}, true
		}
		value := fmt.Sprintf("%v", printable{interp: p.interp, t: t, v: v, erroring: true})
		return verbRewrite{operand: "%!p(" + p.typeName() + "=" + value + ")", verb: 's', plain: true}, true
	}
	return verbRewrite{}, false
}

// typeName is the name of p's type as %T prints it.
func (p printable) typeName() string {
	if p.t == nil {
		return printedType(p.interp, p.v)
	}
	return p.interp.typeString(p.t)
}

// dynamic is p's value and its interpreted type (nil: the reflect type's),
// out of the interfaces, boxes and wrappers around it.
func (p printable) dynamic() (*itype, reflect.Value) {
	pr := &printer{interp: p.interp}
	t, v, _ := pr.concrete(p.t, p.v)
	for t == nil && v.IsValid() && isWrapper(v.Type()) {
		t, v, _ = pr.concrete(nil, v.Field(0))
	}
	return t, v
}

// directive rebuilds the verb of s with its flags, width and precision.
func directive(s fmt.State, verb rune) string {
	b := []byte{'%'}
	for _, c := range "+-# 0" {
		if s.Flag(int(c)) {
			b = append(b, byte(c))
		}
	}
	if w, ok := s.Width(); ok {
		b = strconv.AppendInt(b, int64(w), 10)
	}
	if p, ok := s.Precision(); ok {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(p), 10)
	}
	return string(utf8.AppendRune(b, verb))
}

type printer struct {
	interp    *Interpreter
	s         fmt.State
	verb      rune
	directive string
	plus      bool
	sharp     bool
	sharpV    bool
	erroring  bool // printing the value of a %!verb(type=value): fmt calls no method
}

func (pr *printer) write(s string) { _, _ = pr.s.Write([]byte(s)) }

// leaf formats a basic value (or a string from a method) with fmt itself.
func (pr *printer) leaf(x interface{}) { fmt.Fprintf(pr.s, pr.directive, x) }

// value prints v, of interpreted type t (nil: unknown, the reflect type),
// at depth as fmt's printValue does; exported says fmt could call v's
// methods (it cannot through unexported fields).
func (pr *printer) value(t *itype, v reflect.Value, depth int, exported bool) {
	t, v, iface := pr.concrete(t, v)
	if iface && !v.IsValid() {
		if pr.sharpV {
			pr.write(pr.typeString(t, v) + "(nil)")
		} else {
			pr.write("<nil>")
		}
		return
	}
	if !v.IsValid() {
		if depth == 0 {
			pr.write("<invalid reflect.Value>")
		} else if pr.verb == 'v' {
			pr.write("<nil>")
		} else {
			pr.write("%!" + string(pr.verb) + "(<nil>)")
		}
		return
	}
	if exported && pr.methods(t, v) {
		return
	}
	if t == nil && isWrapper(v.Type()) {
		pr.value(nil, v.Field(0), depth, exported) // the wrapped value, as itself
		return
	}
	named := t != nil && t.cat == linkedT
	under := t
	for under != nil && under.cat == linkedT {
		under = under.val
	}
	if under != nil && under.cat == valueT {
		under = nil
	}
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		if !verbSuits(v.Kind(), pr.verb) {
			pr.badVerb(t, v)
			return
		}
		pr.leaf(basicValue(v))
	case reflect.Map:
		pr.mapValue(t, under, v, depth, exported)
	case reflect.Struct:
		pr.structValue(t, under, v, depth, exported)
	case reflect.Array, reflect.Slice:
		pr.listValue(t, under, v, depth, exported)
	case reflect.Ptr:
		if depth == 0 && v.Pointer() != 0 {
			switch e := v.Elem(); e.Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				pr.write("&")
				var et *itype
				if under != nil && under.cat == ptrT {
					et = under.val
				}
				pr.value(et, e, depth+1, exported)
				return
			}
		}
		pr.pointer(t, v)
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		pr.pointer(t, v)
	default:
		if v.CanInterface() {
			pr.leaf(v.Interface())
		} else {
			pr.write("?")
		}
	}
	_ = named
}

// concrete resolves the interfaces and interpreter boxes around v: its
// dynamic type and value, and whether v was an interface (then an invalid
// value means a nil one).
func (pr *printer) concrete(t *itype, v reflect.Value) (*itype, reflect.Value, bool) {
	iface := false
	for v.IsValid() {
		if v.Type() == valueInterfaceType {
			vi, _ := v.Interface().(valueInterface)
			iface = true
			if vi.node == nil || !vi.value.IsValid() {
				return t, reflect.Value{}, true
			}
			t, v = vi.node.typ, vi.value
			continue
		}
		if v.Kind() == reflect.Interface {
			iface = true
			if v.IsNil() {
				return t, reflect.Value{}, true
			}
			v = v.Elem()
			t = nil
			continue
		}
		break
	}
	if t != nil && (isInterfaceSrc(t) || t.cat == errorT) {
		t = nil // the static type of an interface value the reflect type resolved
	}
	if t == nil && v.IsValid() && isWrapper(v.Type()) {
		// An interface wrapper of the interpreter: its methods call the
		// interpreted ones; the value is the wrapped one.
		return nil, v, iface
	}
	return t, v, iface
}

// isWrapper reports whether rt is one of the interpreter's interface
// wrappers (a struct whose first field IValue holds the value).
func isWrapper(rt reflect.Type) bool {
	return rt.Kind() == reflect.Struct && rt.NumField() > 0 && rt.Field(0).Name == "IValue"
}

// methods calls what fmt's handleMethods would: Format, GoString for %#v,
// Error or String for the verbs a string suits. It reports whether one
// printed v.
func (pr *printer) methods(t *itype, v reflect.Value) bool {
	if pr.erroring {
		return false
	}
	if t == nil {
		if !v.CanInterface() {
			return false
		}
		return pr.compiledMethods(v.Interface())
	}
	if t.cat == valueT || t.cat == ptrT && t.val != nil && t.val.cat == valueT {
		return v.CanInterface() && pr.compiledMethods(v.Interface()) // a compiled type's methods
	}
	if m := pr.method(t, v, "Format"); m.IsValid() && m.Type().NumIn() == 2 && m.Type().NumOut() == 0 {
		pr.guard("Format", v, func() { m.Call([]reflect.Value{reflect.ValueOf(&pr.s).Elem(), reflect.ValueOf(pr.verb)}) })
		return true
	}
	if pr.sharpV {
		if m := pr.stringMethod(t, v, "GoString"); m.IsValid() {
			pr.guard("GoString", v, func() { pr.write(m.Call(nil)[0].String()) })
			return true
		}
		return false
	}
	switch pr.verb {
	case 'v', 's', 'x', 'X', 'q':
		for _, name := range []string{"Error", "String"} {
			if m := pr.stringMethod(t, v, name); m.IsValid() {
				pr.guard(name, v, func() { pr.leaf(m.Call(nil)[0].String()) })
				return true
			}
		}
	}
	return false
}

// compiledMethods is handleMethods for a value of a compiled type.
func (pr *printer) compiledMethods(x interface{}) bool {
	switch m := x.(type) {
	case fmt.Formatter:
		m.Format(pr.s, pr.verb)
		return true
	case fmt.GoStringer:
		if pr.sharpV {
			pr.write(m.GoString())
			return true
		}
	}
	if pr.sharpV {
		return false
	}
	switch pr.verb {
	case 'v', 's', 'x', 'X', 'q':
		switch m := x.(type) {
		case error:
			pr.leaf(m.Error())
			return true
		case fmt.Stringer:
			pr.leaf(m.String())
			return true
		}
	}
	return false
}

// guard runs a method call as fmt does: a panic prints as
// %!v(PANIC=String method: ...), a nil pointer receiver as <nil>.
func (pr *printer) guard(name string, v reflect.Value, call func()) {
	defer func() {
		if r := recover(); r != nil {
			if v.Kind() == reflect.Ptr && v.IsNil() {
				pr.write("<nil>")
				return
			}
			pr.write("%!" + string(pr.verb) + "(PANIC=" + name + " method: " + fmt.Sprint(r) + ")")
		}
	}()
	call()
}

// stringMethod returns t's method name if it is func() string.
func (pr *printer) stringMethod(t *itype, v reflect.Value, name string) reflect.Value {
	m := pr.method(t, v, name)
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.String {
		return reflect.Value{}
	}
	return m
}

// method returns the interpreted method name of a value v of type t, bound
// to v, when it is in the method set of t (a pointer receiver's needs a
// pointer), or the invalid value.
func (pr *printer) method(t *itype, v reflect.Value, name string) reflect.Value {
	m, index := t.lookupMethod(name)
	if m == nil {
		if t.cat == ptrT || v.Kind() == reflect.Ptr {
			return reflect.Value{}
		}
		// A method of an embedded compiled type.
		if mv := v.MethodByName(name); mv.IsValid() {
			return mv
		}
		return reflect.Value{}
	}
	if t.cat != ptrT && ptrReceiver(m) {
		return reflect.Value{}
	}
	nod := *m
	nod.recv = &receiver{val: v, index: index}
	return genFunctionWrapper(&nod)(pr.interp.frame)
}

// ptrReceiver reports whether the method declaration m has a pointer receiver.
func ptrReceiver(m *node) bool {
	if len(m.child) == 0 || len(m.child[0].child) == 0 {
		return false
	}
	return m.child[0].child[0].lastChild().kind == starExpr
}

func (pr *printer) pointer(t *itype, v reflect.Value) {
	if pr.sharpV {
		if v.Pointer() == 0 {
			pr.write("(" + pr.typeString(t, v) + ")(nil)")
			return
		}
		pr.write("(" + pr.typeString(t, v) + ")(0x" + strconv.FormatUint(uint64(v.Pointer()), 16) + ")")
		return
	}
	if !verbSuits(reflect.Ptr, pr.verb) {
		pr.badVerb(t, v)
		return
	}
	if v.Pointer() == 0 && pr.verb == 'v' {
		pr.write("<nil>")
		return
	}
	pr.leaf(unsafe.Pointer(v.Pointer()))
}

// verbSuits reports whether fmt prints a value of kind k with verb, or
// writes %!verb(type=value) (fmt's fmtBool, fmtInteger, fmtFloat,
// fmtComplex, fmtString and fmtPointer).
func verbSuits(k reflect.Kind, verb rune) bool {
	switch k {
	case reflect.Bool:
		return strings.ContainsRune("tv", verb)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strings.ContainsRune("vdboOxXcqU", verb)
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return strings.ContainsRune("vbgGxXfFeE", verb)
	case reflect.String:
		return strings.ContainsRune("vsxXq", verb)
	case reflect.Ptr, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return strings.ContainsRune("vpbodxX", verb)
	}
	return true
}

// badVerb writes what fmt writes for a verb that does not suit the value:
// %!verb(type=value), the value printed with %v and no method called.
func (pr *printer) badVerb(t *itype, v reflect.Value) {
	pr.write("%!" + string(pr.verb) + "(" + pr.typeString(t, v) + "=")
	inner := &printer{interp: pr.interp, s: pr.s, verb: 'v', directive: "%v", erroring: true}
	inner.value(t, v, 0, false)
	pr.write(")")
}

// basicValue is v, of a basic kind, as a value of its reflect type (an
// unexported field's too), for fmt to print.
func basicValue(v reflect.Value) interface{} {
	if v.CanInterface() {
		return v.Interface()
	}
	var c reflect.Value
	switch v.Kind() {
	case reflect.Bool:
		c = reflect.ValueOf(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c = reflect.ValueOf(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c = reflect.ValueOf(v.Uint())
	case reflect.Float32, reflect.Float64:
		c = reflect.ValueOf(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c = reflect.ValueOf(v.Complex())
	case reflect.String:
		c = reflect.ValueOf(v.String())
	default:
		return nil
	}
	return c.Convert(v.Type()).Interface()
}

func (pr *printer) structValue(t, under *itype, v reflect.Value, depth int, exported bool) {
	if pr.sharpV {
		pr.write(pr.typeString(t, v))
	}
	pr.write("{")
	rt := v.Type()
	for i := 0; i < v.NumField(); i++ {
		if i > 0 {
			if pr.sharpV {
				pr.write(", ")
			} else {
				pr.write(" ")
			}
		}
		name := rt.Field(i).Name
		var ft *itype
		if under != nil && under.cat == structT && i < len(under.field) {
			name, ft = under.field[i].name, under.field[i].typ
		}
		if pr.plus || pr.sharpV {
			pr.write(name + ":")
		}
		pr.value(ft, field(v, i), depth+1, exported && rt.Field(i).IsExported())
	}
	pr.write("}")
}

func (pr *printer) listValue(t, under *itype, v reflect.Value, depth int, exported bool) {
	var et *itype
	if under != nil && (under.cat == sliceT || under.cat == arrayT || under.cat == variadicT) {
		et = under.val
	}
	switch pr.verb {
	case 's', 'q', 'x', 'X':
		if v.Type().Elem().Kind() == reflect.Uint8 && (et == nil || et.cat == uint8T) {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			pr.leaf(b)
			return
		}
	}
	if pr.sharpV {
		pr.write(pr.typeString(t, v))
		if v.Kind() == reflect.Slice && v.IsNil() {
			pr.write("(nil)")
			return
		}
		pr.write("{")
	} else {
		pr.write("[")
	}
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			if pr.sharpV {
				pr.write(", ")
			} else {
				pr.write(" ")
			}
		}
		pr.value(et, v.Index(i), depth+1, exported)
	}
	if pr.sharpV {
		pr.write("}")
	} else {
		pr.write("]")
	}
}

func (pr *printer) mapValue(t, under *itype, v reflect.Value, depth int, exported bool) {
	var kt, et *itype
	if under != nil && under.cat == mapT {
		kt, et = under.key, under.val
	}
	if pr.sharpV {
		pr.write(pr.typeString(t, v))
		if v.IsNil() {
			pr.write("(nil)")
			return
		}
		pr.write("{")
	} else {
		pr.write("map[")
	}
	keys := v.MapKeys()
	sort.SliceStable(keys, func(i, j int) bool { return compareKeys(keys[i], keys[j]) < 0 })
	for i, k := range keys {
		if i > 0 {
			if pr.sharpV {
				pr.write(", ")
			} else {
				pr.write(" ")
			}
		}
		pr.value(kt, k, depth+1, exported)
		pr.write(":")
		pr.value(et, v.MapIndex(k), depth+1, exported)
	}
	if pr.sharpV {
		pr.write("}")
	} else {
		pr.write("]")
	}
}

// compareKeys orders map keys as internal/fmtsort does.
func compareKeys(a, b reflect.Value) int {
	a, b = valueInterfaceValue(a), valueInterfaceValue(b)
	if a.Type() != b.Type() {
		return -1 // no good answer, but not equal
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		if c := cmp.Compare(real(a.Complex()), real(b.Complex())); c != 0 {
			return c
		}
		return cmp.Compare(imag(a.Complex()), imag(b.Complex()))
	case reflect.Bool:
		switch {
		case a.Bool() == b.Bool():
			return 0
		case a.Bool():
			return 1
		}
		return -1
	case reflect.Ptr, reflect.UnsafePointer, reflect.Chan:
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareKeys(field(a, i), field(b, i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		switch {
		case a.IsNil() && b.IsNil():
			return 0
		case a.IsNil():
			return -1
		case b.IsNil():
			return 1
		}
		if c := compareKeys(reflect.ValueOf(a.Elem().Type()), reflect.ValueOf(b.Elem().Type())); c != 0 {
			return c
		}
		return compareKeys(a.Elem(), b.Elem())
	}
	return 0
}

// typeString is the Go name of type t, or of v's reflect type when t is nil.
func (pr *printer) typeString(t *itype, v reflect.Value) string {
	if t == nil {
		if !v.IsValid() {
			return "interface {}"
		}
		return v.Type().String()
	}
	return pr.interp.typeString(t)
}

// typeString is t as reflect writes a type: the types the interpreted code
// declares by their package's name and the name they were given.
func (interp *Interpreter) typeString(t *itype) string {
	return interp.typeString2(t, map[*itype]bool{})
}

func (interp *Interpreter) typeString2(t *itype, seen map[*itype]bool) string {
	if t == nil {
		return "interface {}"
	}
	if t.cat == valueT {
		if t.val != nil {
			return interp.typeString2(t.val, seen)
		}
		return t.rtype.String()
	}
	if t.name != "" && t.path != "" && t.cat != interfaceT || t.cat == linkedT && t.name != "" {
		name := t.name
		if f := interp.opt.typeNames; f != nil {
			name = f(name)
		}
		if t.path == "" {
			return name
		}
		return path.Base(t.path) + "." + name
	}
	if seen[t] {
		return t.str
	}
	seen[t] = true
	defer delete(seen, t)
	ts := func(t *itype) string { return interp.typeString2(t, seen) }
	switch t.cat {
	case ptrT:
		return "*" + ts(t.val)
	case sliceT, variadicT:
		return "[]" + ts(t.val)
	case arrayT:
		return "[" + strconv.Itoa(t.length) + "]" + ts(t.val)
	case mapT:
		return "map[" + ts(t.key) + "]" + ts(t.val)
	case chanT:
		return "chan " + ts(t.val)
	case chanSendT:
		return "chan<- " + ts(t.val)
	case chanRecvT:
		return "<-chan " + ts(t.val)
	case errorT:
		return "error"
	case funcT:
		var b strings.Builder
		b.WriteString("func(")
		for i, a := range t.arg {
			if i > 0 {
				b.WriteString(", ")
			}
			if a.cat == variadicT {
				b.WriteString("..." + ts(a.val))
			} else {
				b.WriteString(ts(a))
			}
		}
		b.WriteString(")")
		switch len(t.ret) {
		case 0:
		case 1:
			b.WriteString(" " + ts(t.ret[0]))
		default:
			b.WriteString(" (")
			for i, r := range t.ret {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(ts(r))
			}
			b.WriteString(")")
		}
		return b.String()
	case structT:
		if len(t.field) == 0 {
			return "struct {}"
		}
		var b strings.Builder
		b.WriteString("struct {")
		for i, f := range t.field {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" ")
			if !f.embed {
				b.WriteString(f.name + " ")
			}
			b.WriteString(ts(f.typ))
			if f.tag != "" {
				b.WriteString(" " + strconv.Quote(f.tag))
			}
		}
		b.WriteString(" }")
		return b.String()
	case interfaceT:
		if len(t.field) == 0 {
			return "interface {}"
		}
		var b strings.Builder
		b.WriteString("interface {")
		for i, f := range t.field {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" " + f.name + strings.TrimPrefix(ts(f.typ), "func"))
		}
		b.WriteString(" }")
		return b.String()
	case linkedT:
		return ts(t.val)
	}
	if rt := t.TypeOf(); rt != nil {
		return rt.String()
	}
	return t.str
}

// needsPrinter reports whether fmt, given a value of interpreted type t
// through its reflect type, could print it otherwise than Go prints it:
// a named type (%T, %#v), methods, interfaces inside (the interpreter's
// boxes and wrappers).
func (interp *Interpreter) needsPrinter(t *itype) bool {
	interp.mutex.RLock()
	r, ok := interp.printNeeds[t]
	interp.mutex.RUnlock()
	if ok {
		return r
	}
	r = needsPrinter(t, map[*itype]bool{})
	interp.mutex.Lock()
	if interp.printNeeds == nil {
		interp.printNeeds = map[*itype]bool{}
	}
	interp.printNeeds[t] = r
	interp.mutex.Unlock()
	return r
}

func needsPrinter(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if len(t.method) > 0 {
		return true
	}
	switch t.cat {
	case valueT:
		return t.val != nil || rtypeHoldsInterfaces(t.rtype, map[reflect.Type]bool{})
	case linkedT, interfaceT, errorT:
		return true
	case structT:
		if t.name != "" {
			return true
		}
		for _, f := range t.field {
			if needsPrinter(f.typ, seen) {
				return true
			}
		}
		return false
	case ptrT, sliceT, arrayT, variadicT, chanT, chanSendT, chanRecvT:
		return t.name != "" || needsPrinter(t.val, seen)
	case mapT:
		return t.name != "" || needsPrinter(t.key, seen) || needsPrinter(t.val, seen)
	}
	return t.name != "" && t.path != ""
}

// rtypeHoldsInterfaces reports whether values of rt can hold interface
// values, where the interpreter's boxes and wrappers may be.
func rtypeHoldsInterfaces(rt reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[rt] {
		return false
	}
	seen[rt] = true
	switch rt.Kind() {
	case reflect.Interface:
		return true
	case reflect.Ptr, reflect.Slice, reflect.Array:
		return rtypeHoldsInterfaces(rt.Elem(), seen)
	case reflect.Map:
		return rtypeHoldsInterfaces(rt.Key(), seen) || rtypeHoldsInterfaces(rt.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < rt.NumField(); i++ {
			if rtypeHoldsInterfaces(rt.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// printArgs returns the arguments of a call of a printing function with
// those that need it as printables: types[i] is the static type of in[i]
// (nil for a writer or a format), and a %T verb of a printable's becomes a
// %s of its type's name.
func (interp *Interpreter) printArgs(k printKind, in []reflect.Value, types []*itype, spread bool) []reflect.Value {
	out := make([]reflect.Value, len(in))
	copy(out, in)
	var args []reflect.Value // the printed arguments, spread
	var argTypes []*itype
	if spread {
		// f(format, xs...): the last argument is the slice of the others.
		s := in[len(in)-1]
		for i := 0; i < s.Len(); i++ {
			args = append(args, s.Index(i))
			argTypes = append(argTypes, nil)
		}
	} else {
		args = in[k.first:]
		argTypes = types[k.first:]
	}
	printed := make([]reflect.Value, len(args))
	changed := false
	printables := map[int]printable{}
	for i, a := range args {
		printed[i] = a
		if isNilBox(a) {
			// A nil value of an interface the interpreted code declares.
			printed[i] = reflect.Zero(emptyInterfaceType)
			changed = true
			continue
		}
		p, ok := interp.printableOf(argTypes[i], a, k.errorf)
		if !ok {
			continue
		}
		changed = true
		if k.spaced && isStringKind(p) {
			// Print puts spaces between operands that are not strings:
			// a string stays one.
			printed[i] = reflect.ValueOf(fmt.Sprint(p))
			continue
		}
		printed[i] = reflect.ValueOf(p)
		printables[i] = p
	}
	if !changed {
		return in
	}
	if k.format >= 0 && len(printables) > 0 {
		format, replaced, extra := rewriteVerbs(out[k.format].String(), len(printed), func(arg int, verb rune) (verbRewrite, bool) {
			p, ok := printables[arg]
			if !ok {
				return verbRewrite{}, false
			}
			return p.special(verb)
		})
		for i, r := range replaced {
			printed[i] = reflect.ValueOf(r)
		}
		for _, r := range extra {
			printed = append(printed, reflect.ValueOf(r))
		}
		out[k.format] = reflect.ValueOf(format).Convert(out[k.format].Type())
	}
	if spread {
		s := reflect.MakeSlice(in[len(in)-1].Type(), len(printed), len(printed))
		for i, p := range printed {
			s.Index(i).Set(p)
		}
		out[len(out)-1] = s
		return out
	}
	return append(out[:k.first], printed...)
}

// isNilBox reports whether v is the interpreter's box of a nil interface
// value (an interface the interpreted code declares, never assigned or
// assigned nil).
func isNilBox(v reflect.Value) bool {
	if !v.IsValid() || v.Type() != valueInterfaceType {
		return false
	}
	vi, _ := v.Interface().(valueInterface)
	if vi.node == nil || !vi.value.IsValid() || vi.node.typ != nil && vi.node.typ.cat == nilT {
		return true
	}
	return vi.value.Kind() == reflect.Interface && vi.value.IsNil() && (vi.node.typ == nil || isInterfaceType(vi.node.typ))
}

// printedType is the type name %T prints for a value of no known
// interpreted type: the dynamic type of a box or its reflect type.
func printedType(interp *Interpreter, v reflect.Value) string {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "<nil>"
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return "<nil>"
	}
	if vi, ok := v.Interface().(valueInterface); ok && vi.node != nil {
		return interp.typeString(vi.node.typ)
	}
	if isWrapper(v.Type()) {
		return printedType(interp, v.Field(0)) // the wrapped value's
	}
	return v.Type().String()
}

func isStringKind(p printable) bool {
	_, v := p.dynamic()
	return v.IsValid() && v.Kind() == reflect.String
}

// printableOf returns argument a of static type t as a printable, if fmt
// would print it otherwise than Go.
func (interp *Interpreter) printableOf(t *itype, a reflect.Value, errorf bool) (printable, bool) {
	if t != nil && !isInterfaceType(t) {
		if !interp.needsPrinter(t) {
			return printable{}, false
		}
		if errorf && (t.cat == errorT || t.cat == valueT || isInterfaceSrc(t) || t.methods()["Error"] != "") {
			return printable{}, false // %w must see the error itself
		}
		return printable{interp: interp, t: t, v: a}, true
	}
	// An interface value: its dynamic value decides.
	v := a
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() == reflect.Interface {
		return printable{}, false
	}
	if vi, ok := v.Interface().(valueInterface); ok {
		if vi.node == nil {
			return printable{}, false
		}
		if errorf && vi.node.typ.methods()["Error"] != "" {
			return printable{}, false
		}
		return printable{interp: interp, t: vi.node.typ, v: vi.value}, true
	}
	if errorf && v.Type().Implements(errorRType) {
		return printable{}, false // %w must see the error itself
	}
	if isWrapper(v.Type()) || rtypeHoldsInterfaces(v.Type(), map[reflect.Type]bool{}) {
		return printable{interp: interp, v: v}, true
	}
	return printable{}, false
}

// isInterfaceType reports whether t is an interface type, whose values
// printing their dynamic type decides.
func isInterfaceType(t *itype) bool {
	return isInterfaceSrc(t) || t.cat == errorT || t.cat == valueT && t.rtype.Kind() == reflect.Interface
}

// Sprint formats v, a value an evaluation returned, as fmt.Sprint would in
// the interpreted code (goaccel): a value boxed with its interpreted type,
// or a container holding such values, prints with the types' names and
// methods, not as the interpreter's boxes.
func (interp *Interpreter) Sprint(v reflect.Value) string {
	if isNilBox(v) {
		return "<nil>"
	}
	if p, ok := interp.printableOf(nil, v, false); ok {
		return fmt.Sprint(p)
	}
	if !v.IsValid() || !v.CanInterface() {
		return fmt.Sprint(v)
	}
	return fmt.Sprint(v.Interface())
}
