package interp

// goaccel: reflect.TypeOf and reflect.ValueOf of a value of a type the
// interpreted code declares are refused. reflect cannot make named types
// or give a type methods, so the reflect type of such a value is the type it
// is declared over: reflect.TypeOf(p).Name() of a main.point was "", its
// String() "struct { x int; y int }", and a Celsius was a float64 with no
// methods. The interpreter cannot return another reflect.Type (its methods
// are unexported), and a program asking reflect for a type is asking for
// exactly what differs, so such a call is an error naming it, at compile
// time when the argument's type is known, when it runs otherwise.

import "reflect"

var (
	reflectTypeOf  = reflect.ValueOf(reflect.TypeOf)
	reflectValueOf = reflect.ValueOf(reflect.ValueOf)
)

// isReflectOf reports whether fn is reflect.TypeOf or reflect.ValueOf.
func isReflectOf(fn reflect.Value) bool {
	if !fn.IsValid() || fn.Kind() != reflect.Func {
		return false
	}
	p := fn.Pointer()
	return p == reflectTypeOf.Pointer() || p == reflectValueOf.Pointer()
}

// reflectOfRefusal is the error for a call of reflect.TypeOf or ValueOf,
// named name, of a value of interpreted type t.
func (interp *Interpreter) reflectOfRefusal(name string, t *itype) *Unsupported {
	return &Unsupported{
		Construct: name + " of a " + interp.typeString(t),
		Reason:    "reflect cannot give a type the interpreted code declares its name or its methods (fmt.Sprintf(\"%T\", x) names the type)",
	}
}

// reflectOfArg returns the value of the argument c of reflect.TypeOf or
// ValueOf, refusing one that holds a value of a type the interpreted code
// declares.
func reflectOfArg(fn, c *node) func(*frame) reflect.Value {
	value := genValue(c)
	name := callName(fn)
	return func(f *frame) reflect.Value {
		v := value(f)
		if vi, ok := boxOf(v); ok {
			panic(c.interp.reflectOfRefusal(name, vi.node.typ))
		}
		v = valueInterfaceValue(v)
		check := &unboxer{interp: c.interp, f: f, pointers: true}
		if _, boxes := check.convert(v); boxes {
			panic(&Unsupported{
				Construct: name + " of a " + printedType(c.interp, v) + " holding values of types the interpreted code declares",
				Reason:    "reflect would see the interpreter's boxes of them",
			})
		}
		return v
	}
}
