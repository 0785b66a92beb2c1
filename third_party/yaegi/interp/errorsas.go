package interp

// goaccel: errors.As into a variable of a type the interpreted code
// declares, and errors.Is of interpreted errors. The compiled errors.As checks the target's reflect type, which
// has none of the interpreted methods, so `var nf *NotFound;
// errors.As(err, &nf)` panicked ("errors: *target must be interface or
// implement error"), and it compares reflect types, which cannot tell two
// interpreted types apart. The interpreter runs As itself for such a
// target: the chain of Unwrap methods, the As method, and the interpreted
// type of each error (its wrapper's box). The compiled errors.Is compares
// an error with the target by ==, which it skips for an interpreted error
// (its wrapper has func fields, so is not comparable): errors.Is(fmt.Errorf(
// "w: %w", BadInput{"age"}), BadInput{"age"}) was false. The interpreter
// runs Is with the values the wrappers hold (eqIface).

import (
	"errors"
	"reflect"
)

var (
	errorsAs = reflect.ValueOf(errors.As)
	errorsIs = reflect.ValueOf(errors.Is)
)

// errorsIsCall is errors.Is comparing the values interpreted errors hold.
func errorsIsCall(_ reflect.Value, in []reflect.Value) []reflect.Value {
	err, target := errorArg(in[0]), errorArg(in[1])
	if err == nil || target == nil {
		return []reflect.Value{reflect.ValueOf(err == nil && target == nil)}
	}
	t, _ := unwrapIface(target)
	comparable := t == nil || reflect.TypeOf(t).Comparable()
	return []reflect.Value{reflect.ValueOf(is(err, target, comparable))}
}

// errorArg is the error an argument of errors.Is or errors.As holds: nil for
// a nil interface (errors.Is(nil, target) is false, not a panic).
func errorArg(v reflect.Value) error {
	v = interfaceElem(v)
	if !v.IsValid() {
		return nil
	}
	err, _ := v.Interface().(error)
	return err
}

// is is errors.Is's loop over the chain of err.
func is(err, target error, comparable bool) bool {
	for {
		if comparable && eqIface(err, target) {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			if err = x.Unwrap(); err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if e != nil && is(e, target, comparable) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// interpretedAsTarget returns the type a call of errors.As with target of
// static type t looks for, if the interpreter must run it: t is a pointer to
// a type the interpreted code declares.
func interpretedAsTarget(t *itype) *itype {
	if t == nil || t.cat != ptrT || t.val == nil || isBin(t.val) || t.val.cat == errorT {
		return nil
	}
	return t.val
}

// errorsAsCall returns a call of errors.As that looks for errors of type
// want (the target's element type) as Go's errors.As does.
func (interp *Interpreter) errorsAsCall(want *itype) func(fn reflect.Value, in []reflect.Value) []reflect.Value {
	return func(_ reflect.Value, in []reflect.Value) []reflect.Value {
		target := interfaceElem(in[1])
		if !target.IsValid() {
			panic("errors: target cannot be nil")
		}
		if target.Kind() != reflect.Ptr || target.IsNil() {
			panic("errors: target must be a non-nil pointer")
		}
		if !isInterfaceSrc(want) && want.methods()["Error"] == "" {
			panic("errors: *target must be interface or implement error")
		}
		ok := interp.as(errorArg(in[0]), target, want)
		return []reflect.Value{reflect.ValueOf(ok)}
	}
}

// as is errors.As's loop over the chain of err.
func (interp *Interpreter) as(err error, target reflect.Value, want *itype) bool {
	for err != nil {
		if v, ok := asValue(err, want); ok {
			target.Elem().Set(v)
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target.Interface()) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if e != nil && interp.as(e, target, want) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// asValue returns err as a value of the interpreted type want, as a
// variable of that type holds it, if err is one.
func asValue(err error, want *itype) (reflect.Value, bool) {
	ev := reflect.ValueOf(err)
	var dyn *itype
	v := ev
	if isWrapper(ev.Type()) {
		// An interpreted error: its wrapper holds it, boxed with its type.
		if vi, ok := boxOf(ev.Field(0)); ok {
			dyn, v = vi.node.typ, vi.value
		} else {
			v = interfaceElem(ev.Field(0))
		}
	}
	if isInterfaceSrc(want) {
		switch {
		case dyn != nil && inMethodSet(dyn, want):
			return reflect.ValueOf(valueInterface{&node{typ: dyn}, v}), true
		case dyn == nil && implementsCompiled(ev, want):
			return reflect.ValueOf(valueInterface{&node{typ: valueTOf(ev.Type())}, ev}), true
		}
		return reflect.Value{}, false
	}
	if dyn != nil {
		return v, dyn.id() == want.id()
	}
	rt := want.TypeOf()
	return v, rt != nil && v.IsValid() && structLike(rt) && v.Type() == rt
}
