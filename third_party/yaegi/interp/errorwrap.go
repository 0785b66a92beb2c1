package interp

import "reflect"

// The wrappers of an interpreted error with the methods errors.Is,
// errors.As and errors.Unwrap look for (goaccel): an interpreted error in
// an error variable, or handed to compiled code, is a wrapper, which had
// only its Error method, so compiled errors.Is never saw an Is method and
// fmt.Errorf's %w chain stopped at it. getWrapper picks the richest of
// these whose methods the type has.

type _errorIsAsUnwrap struct {
	IValue  interface{}
	WError  func() string
	WIs     func(error) bool
	WAs     func(interface{}) bool
	WUnwrap func() error
}

func (w _errorIsAsUnwrap) Error() string         { return w.WError() }
func (w _errorIsAsUnwrap) Is(e error) bool       { return w.WIs(e) }
func (w _errorIsAsUnwrap) As(t interface{}) bool { return w.WAs(t) }
func (w _errorIsAsUnwrap) Unwrap() error         { return w.WUnwrap() }

type _errorIsAs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	WAs    func(interface{}) bool
}

func (w _errorIsAs) Error() string         { return w.WError() }
func (w _errorIsAs) Is(e error) bool       { return w.WIs(e) }
func (w _errorIsAs) As(t interface{}) bool { return w.WAs(t) }

type _errorIsUnwrap struct {
	IValue  interface{}
	WError  func() string
	WIs     func(error) bool
	WUnwrap func() error
}

func (w _errorIsUnwrap) Error() string   { return w.WError() }
func (w _errorIsUnwrap) Is(e error) bool { return w.WIs(e) }
func (w _errorIsUnwrap) Unwrap() error   { return w.WUnwrap() }

type _errorAsUnwrap struct {
	IValue  interface{}
	WError  func() string
	WAs     func(interface{}) bool
	WUnwrap func() error
}

func (w _errorAsUnwrap) Error() string         { return w.WError() }
func (w _errorAsUnwrap) As(t interface{}) bool { return w.WAs(t) }
func (w _errorAsUnwrap) Unwrap() error         { return w.WUnwrap() }

type _errorIs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
}

func (w _errorIs) Error() string   { return w.WError() }
func (w _errorIs) Is(e error) bool { return w.WIs(e) }

type _errorAs struct {
	IValue interface{}
	WError func() string
	WAs    func(interface{}) bool
}

func (w _errorAs) Error() string         { return w.WError() }
func (w _errorAs) As(t interface{}) bool { return w.WAs(t) }

type _errorUnwrap struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
}

func (w _errorUnwrap) Error() string { return w.WError() }
func (w _errorUnwrap) Unwrap() error { return w.WUnwrap() }

// errorWrappers are the composed error wrappers, the richest first.
var errorWrappers = []reflect.Type{
	reflect.TypeOf(_errorIsAsUnwrap{}),
	reflect.TypeOf(_errorIsAs{}),
	reflect.TypeOf(_errorIsUnwrap{}),
	reflect.TypeOf(_errorAsUnwrap{}),
	reflect.TypeOf(_errorIs{}),
	reflect.TypeOf(_errorAs{}),
	reflect.TypeOf(_errorUnwrap{}),
}
