package session

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/kernel/internal/cells"
)

// noValueBuiltins are the builtins whose call has no result.
var noValueBuiltins = map[string]bool{"print": true, "println": true, "delete": true, "panic": true, "close": true, "clear": true}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// evalExpr runs the cell's final expression and returns its value as the
// cell's result. yaegi's Eval may return a stale value for a call without
// results (upstream issue #1069), so the called function's type decides
// first whether there is a value to show.
func (s *Session) evalExpr(ctx context.Context, run int, u cells.Unit) Result {
	if c := u.Call; c != nil {
		if c.Builtin && noValueBuiltins[c.Fun] {
			return s.runQuiet(ctx, run, u)
		}
		if c.Simple && !c.Builtin {
			fu := u.Replace(c.Fun)
			if fv, err := s.run(ctx, run, fu); err == nil && fv.IsValid() && fv.Kind() == reflect.Func {
				t := fv.Type()
				switch {
				case t.NumOut() == 0:
					return s.runQuiet(ctx, run, u)
				case t.NumOut() >= 2:
					return s.evalTuple(ctx, run, u, t)
				case t.Out(0) == errorType:
					v, err := s.run(ctx, run, u)
					if err != nil {
						return s.failure(ctx, err, run)
					}
					if isNil(v) {
						return Result{} // only a nil error: nothing to show
					}
					return s.show(v)
				}
			}
		}
	}
	if methods := s.declaredRenderMethods(); methods != nil {
		return s.evalRich(ctx, run, u, methods)
	}
	v, err := s.run(ctx, run, u)
	if err != nil {
		return s.failure(ctx, err, run)
	}
	return s.show(v)
}

// runQuiet runs u for its effect only. It stays an expression unit, so
// that it sets the cell line first (a panic("…") ending a cell is reported
// at its own line, not at the statement before it).
func (s *Session) runQuiet(ctx context.Context, run int, u cells.Unit) Result {
	if _, err := s.run(ctx, run, u); err != nil {
		return s.failure(ctx, err, run)
	}
	return Result{}
}

// evalTuple runs a call with several results by assigning them to hidden
// variables. Results (n int, err error) with a nil err, like fmt.Println's,
// show nothing.
func (s *Session) evalTuple(ctx context.Context, run int, u cells.Unit, t reflect.Type) Result {
	names := make([]string, t.NumOut())
	for i := range names {
		names[i] = fmt.Sprintf("__goaccel_r%d", i)
	}
	su := u.Wrap(strings.Join(names, ", ")+" := ", "")
	su.Kind = cells.KindStmt
	if _, err := s.run(ctx, run, su); err != nil {
		return s.failure(ctx, err, run)
	}
	globals := s.globals()
	vals := make([]reflect.Value, len(names))
	for i, n := range names {
		vals[i] = globals[n]
	}
	if len(vals) == 2 && t.Out(0).Kind() == reflect.Int && t.Out(1) == errorType && isNil(vals[1]) {
		return Result{}
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = s.plain(v)
	}
	return Result{Data: map[string]any{"text/plain": "(" + strings.Join(parts, ", ") + ")"}, Metadata: map[string]any{}}
}

func isNil(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

var ptrToAny = reflect.TypeOf((*any)(nil))

// show returns the MIME bundle of a value: text/plain always, plus whatever
// the value renders itself as (image.Image, HTML(), display.Bundle, ...).
func (s *Session) show(v reflect.Value) Result {
	if !v.IsValid() || v.Type() == ptrToAny {
		return Result{} // no value, or yaegi's placeholder for a declaration
	}
	data := map[string]any{"text/plain": s.plain(v)}
	if v.CanInterface() {
		if b, err := display.BundleOf(v.Interface()); err == nil {
			for k, d := range b {
				if k != "text/plain" || hasRenderer(v) {
					data[k] = d
				}
			}
		}
	}
	return Result{Data: data, Metadata: map[string]any{}}
}

func hasRenderer(v reflect.Value) bool {
	_, ok := v.Interface().(display.Renderer)
	return ok
}

// plain is the text/plain form of a value, as fmt's %v prints it in a
// cell: a value of a cell's type kept in an interface (boxed by the
// interpreter), or a slice or map holding such values, with its type's
// methods, not as the interpreter's box.
func (s *Session) plain(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "<nil>"
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Func {
		return typeString(v.Type())
	}
	return s.yaegi.Sprint(v)
}

// typeString names a type for users: yaegi's own types appear as their
// underlying struct, with unexported fields prefixed X; show them plainly.
func typeString(t reflect.Type) string {
	return t.String()
}
