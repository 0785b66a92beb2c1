package interp

import (
	"reflect"
	"sort"
)

// goaccel: which values keep their interpreted type in an interface value.
// reflect cannot make named types, so the reflect type of a value of a type
// the interpreted code declares is the type it is declared over (a Celsius
// is a float64, a point a struct { x int; y int }). Stored in an interface
// as such, the value lost its type: %T printed the struct, a type switch
// matched float64 for a Celsius, and two struct types with the same fields
// could not be told apart. The interpreter boxes such a value with its type
// (a valueInterface whose node has the type), as it always did for types
// with methods.

// boxedInInterface reports whether a value of type t is kept in an
// interface value boxed with its type: t has methods, or t or a type it is
// made of is one the interpreted code declares.
func boxedInInterface(t *itype) bool {
	if t != nil && isInterfaceSrc(t) && t.val != nil && !isInterfaceSrc(t.val) {
		t = t.val // the conversion of a concrete value to an interface
	}
	if t == nil || isInterfaceSrc(t) || t.cat == nilT {
		return false
	}
	return len(t.method) > 0 || declaresName(t, map[*itype]bool{})
}

// declaresName reports whether t, or a type t is made of, is a named type
// the interpreted code declares (whose name its reflect type lacks).
func declaresName(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch t.cat {
	case valueT, errorT, nilT:
		return false
	}
	if t.name != "" && t.path != "" || t.cat == linkedT {
		return true
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, variadicT, chanT, chanSendT, chanRecvT:
		return declaresName(t.val, seen)
	case mapT:
		return declaresName(t.key, seen) || declaresName(t.val, seen)
	case structT:
		for _, f := range t.field {
			if declaresName(f.typ, seen) {
				return true
			}
		}
	case funcT:
		for _, a := range t.arg {
			if declaresName(a, seen) {
				return true
			}
		}
		for _, r := range t.ret {
			if declaresName(r, seen) {
				return true
			}
		}
	}
	return false
}

// boxNode is the node a box of the value of n holds, for its type: n, or
// for the conversion of a concrete value to an interface (cfg keeps the
// concrete type as the interface type's val), a node of the concrete type.
func boxNode(n *node) *node {
	if t := n.typ; t != nil && isInterfaceSrc(t) && t.val != nil && !isInterfaceSrc(t.val) {
		return &node{typ: t.val}
	}
	return n
}

// inMethodSet reports whether every method of the interface it is in the
// method set of t, a dynamic type: a method with a pointer receiver is in
// the method set of a value type only through an embedded pointer
// (implements ignores receivers, which a declaration's check may, but not
// a type switch or an assertion).
func inMethodSet(t, it *itype) bool {
	if !t.implements(it) {
		return false
	}
	if t.cat == ptrT {
		return true
	}
	for name := range it.methods() {
		m, index := t.lookupMethod(name)
		if m == nil || !ptrReceiver(m) {
			continue
		}
		if !embedsPointer(t, index) {
			return false
		}
	}
	return true
}

// embedsPointer reports whether the path of embedded fields index from
// struct type t goes through a pointer.
func embedsPointer(t *itype, index []int) bool {
	for _, i := range index {
		for t.cat == linkedT {
			t = t.val
		}
		if t.cat != structT || i >= len(t.field) {
			return false
		}
		t = t.field[i].typ
		if t.cat == ptrT {
			return true
		}
	}
	return false
}

// assertionFailure is the runtime's message for a failed assertion of v to
// the interface typ.
func assertionFailure(interp *Interpreter, v reflect.Value, typ *itype) string {
	name := printedType(interp, v)
	if name == "<nil>" || isNilBox(v) {
		return "interface conversion: interface is nil, not " + interp.typeString(typ)
	}
	missing := ""
	names := make([]string, 0, len(typ.methods()))
	for m := range typ.methods() {
		names = append(names, m)
	}
	sort.Strings(names)
	dyn := dynamicType(v)
	for _, m := range names {
		if dyn == nil {
			missing = m
			break
		}
		if !inMethodSet(dyn, &itype{cat: interfaceT, field: []structField{{name: m, typ: typ.interfaceMethod(m)}}}) {
			missing = m
			break
		}
	}
	return "interface conversion: " + name + " is not " + interp.typeString(typ) + ": missing method " + missing
}

// dynamicType is the interpreted type of the value v holds, out of the
// interfaces, boxes and wrappers around it (nil: a compiled value's).
func dynamicType(v reflect.Value) *itype {
	for v.IsValid() {
		if vi, ok := v.Interface().(valueInterface); ok {
			if vi.node == nil {
				return nil
			}
			return vi.node.typ
		}
		switch {
		case v.Kind() == reflect.Interface && !v.IsNil():
			v = v.Elem()
		case isWrapper(v.Type()):
			v = v.Field(0)
		default:
			return nil
		}
	}
	return nil
}

// genOperand returns the value of the operand n of a type switch or an
// assertion: the value boxed with its type when n converts a value of a
// boxed type to an interface (the conversion itself leaves the value bare,
// for the code that reads it as its concrete type).
func genOperand(n *node) func(*frame) reflect.Value {
	value := genValue(n)
	if n.action != aConvert || n.typ == nil || !isInterfaceSrc(n.typ) || n.typ.val == nil || isInterfaceSrc(n.typ.val) || !boxedInInterface(n.typ.val) {
		return value
	}
	box := &node{typ: n.typ.val, interp: n.interp}
	return func(f *frame) reflect.Value {
		v := value(f)
		if _, ok := v.Interface().(valueInterface); ok {
			return v
		}
		return reflect.ValueOf(valueInterface{box, deferredArg(v)})
	}
}

// recursiveOutsideStruct reports whether t refers to itself through
// pointers, slices, arrays, maps, channels or functions only, never a struct
// (type Number *Number): reflect cannot make such a type without its name.
func recursiveOutsideStruct(t *itype) bool {
	var reaches func(u *itype, seen map[*itype]bool) bool
	reaches = func(u *itype, seen map[*itype]bool) bool {
		if u == nil || seen[u] {
			return false
		}
		seen[u] = true
		var next []*itype
		switch u.cat {
		case linkedT, ptrT, sliceT, arrayT, variadicT, chanT, chanSendT, chanRecvT:
			next = []*itype{u.val}
		case mapT:
			next = []*itype{u.key, u.val}
		case funcT:
			next = append(append(next, u.arg...), u.ret...)
		}
		for _, v := range next {
			if v == t || v != nil && v.incomplete && v.name != "" && v.name == t.name && v.path == t.path || reaches(v, seen) {
				return true
			}
		}
		return false
	}
	return reaches(t, map[*itype]bool{})
}

// typeExprString is the source of a simple type expression, for messages.
func typeExprString(n *node) string {
	switch n.kind {
	case starExpr:
		return "*" + typeExprString(n.child[0])
	case sliceExpr, arrayType:
		if len(n.child) == 1 {
			return "[]" + typeExprString(n.child[0])
		}
	case identExpr:
		return n.ident
	}
	return "…"
}
