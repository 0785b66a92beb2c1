package stdgeneric

import (
	"crypto/hkdf"
	"crypto/pbkdf2"
	"database/sql/driver"
	"fmt"
	"hash"
	"hash/maphash"
	randv2 "math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"unique"
	"unsafe"
	"weak"
)

// The compiled halves of the generic functions and types that the
// interpreted sources (errors.go.txt, sync.go.txt, …) give the packages
// whose other symbols come from the symbol tables: each instantiates the Go
// generic once, with interfaces, and the interpreted half converts.

// OnceFunc is sync.OnceFunc, for sync.OnceValue and OnceValues.
func OnceFunc(f func()) func() { return sync.OnceFunc(f) }

// Mutex is sync.Mutex, for sync/atomic.Pointer.
type Mutex = sync.Mutex

// UniqueMake is unique.Make of v, a comparable value.
func UniqueMake(v any) any { return unique.Make(v) }

// UniqueValue is the value of a handle UniqueMake returned.
func UniqueValue(h any) any { return h.(unique.Handle[any]).Value() }

// weakPointer is a weak pointer to the object ptr points to, with ptr's type.
type weakPointer struct {
	p weak.Pointer[byte]
	t reflect.Type
}

// WeakMake is weak.Make of ptr, a pointer (nil: a nil weak pointer).
func WeakMake(ptr any) any {
	v := reflect.ValueOf(ptr)
	if !v.IsValid() || v.IsNil() {
		return weakPointer{}
	}
	return weakPointer{weak.Make((*byte)(v.UnsafePointer())), v.Type()}
}

// WeakValue sets *dest, a pointer variable, to the pointer a WeakMake
// pointer holds, or leaves it nil.
func WeakValue(w any, dest any) {
	wp := w.(weakPointer)
	if b := wp.p.Value(); b != nil {
		reflect.ValueOf(dest).Elem().Set(reflect.NewAt(wp.t.Elem(), unsafe.Pointer(b)))
	}
}

// UnsafeSlice sets *dest, a slice variable, to unsafe.Slice(ptr, n).
func UnsafeSlice(ptr any, n int, dest any) {
	p := reflect.ValueOf(ptr)
	if p.IsNil() {
		if n != 0 {
			panic("unsafe.Slice: ptr is nil and len is not zero")
		}
		return
	}
	reflect.ValueOf(dest).Elem().Set(reflect.SliceAt(p.Type().Elem(), p.UnsafePointer(), n))
}

// UnsafeStringData is unsafe.StringData.
func UnsafeStringData(s string) *byte { return unsafe.StringData(s) }

// UnsafeString is unsafe.String.
func UnsafeString(ptr *byte, n int) string { return unsafe.String(ptr, n) }

// RandUint64N is math/rand/v2.Uint64N, for rand.N.
func RandUint64N(n uint64) uint64 { return randv2.Uint64N(n) }

// AddCleanup is runtime.AddCleanup of the object ptr, a pointer, points to.
func AddCleanup(ptr any, cleanup func(any), arg any) runtime.Cleanup {
	return runtime.AddCleanup((*byte)(reflect.ValueOf(ptr).UnsafePointer()), cleanup, arg)
}

// HKDFExtract, HKDFExpand and HKDFKey are crypto/hkdf's functions.
func HKDFExtract(h func() hash.Hash, secret, salt []byte) ([]byte, error) {
	return hkdf.Extract(h, secret, salt)
}

func HKDFExpand(h func() hash.Hash, prk []byte, info string, n int) ([]byte, error) {
	return hkdf.Expand(h, prk, info, n)
}

func HKDFKey(h func() hash.Hash, secret, salt []byte, info string, n int) ([]byte, error) {
	return hkdf.Key(h, secret, salt, info, n)
}

// PBKDF2Key is crypto/pbkdf2.Key.
func PBKDF2Key(h func() hash.Hash, password string, salt []byte, iter, n int) ([]byte, error) {
	return pbkdf2.Key(h, password, salt, iter, n)
}

// MaphashComparable is hash/maphash.Comparable of v, a comparable value.
func MaphashComparable(seed maphash.Seed, v any) uint64 { return maphash.Comparable(seed, v) }

// MaphashWriteComparable is hash/maphash.WriteComparable of v.
func MaphashWriteComparable(h *maphash.Hash, v any) { maphash.WriteComparable(h, v) }

// SQLScan stores src, a value a database driver returned, in *dest, as
// database/sql.Null[T].Scan does: a value of dest's type, or one its
// conversions cover (numbers, strings and []byte, booleans, time).
func SQLScan(dest any, src driver.Value) error {
	d := reflect.ValueOf(dest).Elem()
	if src == nil {
		d.SetZero()
		return nil
	}
	s := reflect.ValueOf(src)
	if s.Type().AssignableTo(d.Type()) {
		d.Set(s)
		return nil
	}
	text, isText := "", false
	switch v := src.(type) {
	case []byte:
		text, isText = string(v), true
	case string:
		text, isText = v, true
	}
	switch d.Kind() {
	case reflect.String:
		if isText {
			d.SetString(text)
			return nil
		}
		d.SetString(fmt.Sprint(src))
		return nil
	case reflect.Slice:
		if d.Type().Elem().Kind() == reflect.Uint8 && isText {
			d.SetBytes([]byte(text))
			return nil
		}
	case reflect.Bool:
		if b, err := driver.Bool.ConvertValue(src); err == nil {
			d.SetBool(b.(bool))
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(asText(src, text, isText), 10, d.Type().Bits())
		if err != nil {
			return convertErr(src, d, err)
		}
		d.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(asText(src, text, isText), 10, d.Type().Bits())
		if err != nil {
			return convertErr(src, d, err)
		}
		d.SetUint(n)
		return nil
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(asText(src, text, isText), d.Type().Bits())
		if err != nil {
			return convertErr(src, d, err)
		}
		d.SetFloat(f)
		return nil
	}
	if s.Type().ConvertibleTo(d.Type()) && s.Kind() != reflect.String && d.Kind() != reflect.String {
		d.Set(s.Convert(d.Type()))
		return nil
	}
	return fmt.Errorf("unsupported Scan, storing driver.Value type %T into type %s", src, d.Type())
}

func convertErr(src any, d reflect.Value, err error) error {
	return fmt.Errorf("converting driver.Value type %T (%q) to a %s: %w", src, asText(src, "", false), d.Kind(), err)
}

func asText(src any, text string, isText bool) string {
	if isText {
		return text
	}
	return fmt.Sprint(src)
}
