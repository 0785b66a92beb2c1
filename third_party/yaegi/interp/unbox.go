package interp

// goaccel: the arguments of a compiled function, without the interpreter's
// boxes. A value of a type the interpreted code declares is kept in an
// interface boxed with its type (boxes.go): a valueInterface, whose fields
// compiled code cannot read. An argument that is such an interface value
// was unboxed before (change 17), but one inside a slice, a map, a struct or
// another interface reached compiled code as the box (json.Marshal of
// []any{point{1, 2}} gave [{}]). The unboxer replaces every box inside an
// argument with the value it holds, or with a wrapper implementing the
// interface the function looks for (json.Marshaler for json.Marshal, the
// interpreter's MapTypes), in a copy of the containers that held boxes;
// an argument with no box inside is passed as it is.

import (
	"container/heap"
	"reflect"
	"sort"
	"sync"
)

// unboxer converts the arguments of one call of a compiled function.
type unboxer struct {
	interp *Interpreter
	f      *frame
	fn     *node          // the function called, for messages
	ifaces []reflect.Type // the interfaces the function looks for (MapTypes), most specific first
	// pointers says the function only reads its arguments, so the values
	// behind pointers may be copied too (json.Marshal, which follows
	// them); otherwise a pointer is passed as it is, so that the function
	// writes where the interpreted code reads.
	pointers bool
	seen     map[uintptr]reflect.Value
}

// keepsBoxes lists compiled functions that move the elements of the slice
// they are given without looking into them: they must get the slice itself.
var keepsBoxes = map[reflect.Value]bool{
	reflect.ValueOf(sort.Slice):          true,
	reflect.ValueOf(sort.SliceStable):    true,
	reflect.ValueOf(reflect.Swapper):     true,
	reflect.ValueOf(reflect.Copy):        true,
	reflect.ValueOf(reflect.ValueOf):     true,
	reflect.ValueOf(reflect.TypeOf):      true,
	reflect.ValueOf(reflect.Append):      true,
	reflect.ValueOf(reflect.AppendSlice): true,
}

// newUnboxer returns the unboxer of calls of fn, a compiled function, or
// nil when its arguments go as they are.
func newUnboxer(interp *Interpreter, fn *node, ifaces []reflect.Type) *unboxer {
	if fn.rval.IsValid() && keepsBoxes[fn.rval] {
		return nil
	}
	u := &unboxer{interp: interp, fn: fn, ifaces: ifaces}
	if len(ifaces) > 0 {
		u.pointers = true
		for _, it := range ifaces {
			for i := 0; i < it.NumMethod(); i++ {
				if name := it.Method(i).Name; len(name) < 7 || name[:7] != "Marshal" {
					u.pointers = false // UnmarshalJSON: the function writes
				}
			}
		}
	}
	return u
}

// arg returns argument v as compiled code can read it.
func (u *unboxer) arg(f *frame, v reflect.Value) reflect.Value {
	if u == nil || !v.IsValid() {
		return v
	}
	c := *u
	c.f = f
	c.seen = nil
	if vi, ok := boxOf(v); ok {
		return c.box(vi)
	}
	if w := interfaceElem(v); w.IsValid() && isWrapper(w.Type()) && len(u.ifaces) > 0 {
		// An interpreted value that went through a compiled interface
		// (fmt.Stringer, say), given to a function looking for others.
		if vi, ok := boxOf(w.Field(0)); ok {
			return c.box(vi)
		}
		return interfaceElem(w.Field(0))
	}
	if r, changed := c.convert(v); changed {
		return r
	}
	return v
}

// interfaceElem is the value inside the interfaces v is (v if none).
func interfaceElem(v reflect.Value) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// boxOf returns the box v is or holds, if it is one of a value.
func boxOf(v reflect.Value) (valueInterface, bool) {
	v = interfaceElem(v)
	if !v.IsValid() || v.Type() != valueInterfaceType {
		return valueInterface{}, false
	}
	vi, _ := v.Interface().(valueInterface)
	if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
		return valueInterface{}, false
	}
	return vi, true
}

// box returns what compiled code gets for a box: a wrapper implementing the
// interface the function looks for, or the value it holds, itself unboxed.
// A value whose type has such methods where compiled code cannot see them
// (inside a struct, say) is refused.
func (u *unboxer) box(vi valueInterface) reflect.Value {
	t := vi.node.typ
	if len(u.ifaces) > 0 {
		if h, in := hiddenImplementer(t, u.ifaces, 0, map[*itype]bool{}); h != nil {
			panic(&Unsupported{
				Construct: callName(u.fn) + " of a " + u.interp.typeString(t),
				Reason:    h.name + "'s " + methodOf(h, u.ifaces) + " method is invisible to compiled code inside " + in + "; pass each " + h.name + " by itself",
			})
		}
		for _, rt := range u.ifaces {
			if inMethodSet(t, &itype{cat: valueT, rtype: rt}) {
				return genInterfaceWrapper(&node{typ: t, rval: vi.value, interp: u.interp}, rt)(u.f)
			}
		}
		switch vi.value.Kind() {
		case reflect.Func, reflect.Chan, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
			if u.pointers {
				// The encoder fails, and its error names the reflect type.
				panic(&Unsupported{
					Construct: callName(u.fn) + " of a " + u.interp.typeString(t),
					Reason:    "its error would name the type " + vi.value.Type().String() + ", not " + u.interp.typeString(t),
				})
			}
		}
	}
	v := vi.value
	if r, changed := u.convert(v); changed {
		return r
	}
	return v
}

// convert returns v with the boxes inside it replaced, in copies of the
// containers holding them, and whether there were any.
func (u *unboxer) convert(v reflect.Value) (reflect.Value, bool) {
	if !v.IsValid() || !holdsInterfaces(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e := v.Elem()
		var r reflect.Value
		if vi, ok := boxOf(e); ok {
			r = u.box(vi)
		} else if isWrapper(e.Type()) {
			return v, false // it implements the interface it is in
		} else {
			var changed bool
			if r, changed = u.convert(e); !changed {
				return v, false
			}
		}
		out := reflect.New(v.Type()).Elem()
		if r.IsValid() {
			out.Set(r)
		}
		return out, true
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return v, false
		}
		var out reflect.Value
		for i := 0; i < v.Len(); i++ {
			r, changed := u.convert(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				if v.Kind() == reflect.Slice {
					out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				} else {
					out = reflect.New(v.Type()).Elem()
				}
				reflect.Copy(out, v)
			}
			out.Index(i).Set(r)
		}
		return out, out.IsValid()
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		changed := false
		type entry struct{ k, v reflect.Value }
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			k, kc := u.convert(it.Key())
			e, ec := u.convert(it.Value())
			changed = changed || kc || ec
			entries = append(entries, entry{k, e})
		}
		if !changed {
			return v, false
		}
		out := reflect.MakeMapWithSize(v.Type(), len(entries))
		for _, e := range entries {
			out.SetMapIndex(e.k, e.v)
		}
		return out, true
	case reflect.Struct:
		if isWrapper(v.Type()) {
			return v, false
		}
		var out reflect.Value
		for i := 0; i < v.NumField(); i++ {
			r, changed := u.convert(field(v, i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				for j := 0; j < v.NumField(); j++ {
					field(out, j).Set(field(v, j))
				}
			}
			field(out, i).Set(r)
		}
		return out, out.IsValid()
	case reflect.Ptr:
		if !u.pointers || v.IsNil() {
			return v, false
		}
		if r, ok := u.seen[v.Pointer()]; ok {
			return r, r.IsValid()
		}
		if u.seen == nil {
			u.seen = map[uintptr]reflect.Value{}
		}
		u.seen[v.Pointer()] = reflect.Value{} // a cycle: the pointer itself
		r, changed := u.convert(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(r)
		u.seen[v.Pointer()] = p
		return p, true
	}
	return v, false
}

// holdsInterfaceTypes caches holdsInterfaces.
var holdsInterfaceTypes sync.Map // reflect.Type → bool

// holdsInterfaces reports whether values of rt can hold interface values,
// where boxes may be.
func holdsInterfaces(rt reflect.Type) bool {
	if r, ok := holdsInterfaceTypes.Load(rt); ok {
		return r.(bool)
	}
	r := rtypeHoldsInterfaces(rt, map[reflect.Type]bool{})
	holdsInterfaceTypes.Store(rt, r)
	return r
}

// callName is how a message names the function fn calls.
func callName(fn *node) string {
	if fn.kind == selectorExpr && len(fn.child) == 2 {
		return fn.child[0].ident + "." + fn.child[1].ident
	}
	return fn.ident
}

// Unsupported is the value of a panic that ends an evaluation doing what the
// interpreter cannot do as Go does (goaccel): its message names the
// construct and why.
type Unsupported struct {
	Construct string // what the code did: "json.Marshal of a main.Order"
	Reason    string
}

func (u *Unsupported) Error() string {
	return u.Construct + " is not supported: " + u.Reason
}

// keptValues lists compiled containers that keep the values they are given,
// unlooked at, for the interpreted code to get back (goaccel): they get
// a value of an interpreted type boxed, with its type, so that a Celsius
// pushed on a container/list comes back a Celsius, not a float64. By the
// receiver's reflect type, the methods; "" for functions.
var keptValues = map[string]map[string]bool{
	"*list.List":    {"PushBack": true, "PushFront": true, "InsertBefore": true, "InsertAfter": true},
	"*sync.Map":     {"Store": true, "LoadOrStore": true, "Swap": true, "CompareAndSwap": true},
	"*atomic.Value": {"Store": true, "Swap": true, "CompareAndSwap": true},
}

var keptValueFuncs = map[reflect.Value]bool{
	reflect.ValueOf(heap.Push): true, // to the interpreted Push method
}

// keepsValues reports whether fn, a compiled function or method, is one of
// the containers that keep their values (keptValues).
func keepsValues(fn *node) bool {
	if fn.rval.IsValid() && fn.rval.Kind() == reflect.Func {
		for f := range keptValueFuncs {
			if f.Pointer() == fn.rval.Pointer() {
				return true
			}
		}
	}
	if fn.kind != selectorExpr || len(fn.child) != 2 || fn.child[0].typ == nil {
		return false
	}
	rt := fn.child[0].typ.TypeOf()
	if rt == nil {
		return false
	}
	if rt.Kind() != reflect.Ptr {
		rt = reflect.PointerTo(rt) // an addressable value's method
	}
	return keptValues[rt.String()][fn.child[1].ident]
}
