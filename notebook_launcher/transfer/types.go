package transfer

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
)

var fileType = reflect.TypeOf((*os.File)(nil))

// refusedKind returns an *Error when values of type t can never cross.
func refusedKind(t reflect.Type, path string) error {
	reason := ""
	switch {
	case t == fileType:
		reason = "an open file (*os.File) stays in the process that opened it: pass its path and open it in the function"
	case t.Kind() == reflect.Chan:
		reason = fmt.Sprintf("a channel (%s) cannot cross to another process", t)
	case t.Kind() == reflect.Func:
		reason = fmt.Sprintf("a function (%s) cannot cross to another process: call it inside the launched function instead", t)
	case t.Kind() == reflect.UnsafePointer:
		reason = "an unsafe.Pointer is an address in this process only"
	default:
		return nil
	}
	return &Error{Path: path, Reason: reason}
}

// checkFields refuses a library struct with unexported fields: its state is
// private to its package, and copying it field by field could break it. A
// notebook's own structs (interpreted ones are unnamed; compiled workers'
// are in package main) cross with all their fields.
func checkFields(t reflect.Type, path string) error {
	if t.PkgPath() == "" || t.PkgPath() == "main" {
		return nil
	}
	for i := 0; i < t.NumField(); i++ {
		if !t.Field(i).IsExported() {
			hint := ""
			if strings.HasPrefix(t.PkgPath(), "github.com/goaccel/goaccel/nn") || strings.HasSuffix(t.String(), "Module") {
				hint = "; for a model, pass nn.StateDict(model) and load it with nn.LoadStateDict in the function"
			}
			return &Error{Path: path, Reason: fmt.Sprintf("%s has unexported fields (%s), so it cannot be copied to another process%s", t, t.Field(i).Name, hint)}
		}
	}
	return nil
}

// CheckType reports a part of type t that can never cross (a channel, a
// function, a library struct with unexported fields, …). Interfaces are
// checked when a value is encoded.
func CheckType(t reflect.Type, path string) error {
	return checkType(t, path, map[reflect.Type]bool{})
}

func checkType(t reflect.Type, path string, seen map[reflect.Type]bool) error {
	if seen[t] || t == tensorType {
		return nil
	}
	seen[t] = true
	if err := refusedKind(t, path); err != nil {
		return err
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(marshaler) && t.PkgPath() != "main" {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return checkType(t.Elem(), path, seen)
	case reflect.Map:
		if err := checkType(t.Key(), path+" (key)", seen); err != nil {
			return err
		}
		return checkType(t.Elem(), path, seen)
	case reflect.Struct:
		if err := checkFields(t, path); err != nil {
			return err
		}
		for i := 0; i < t.NumField(); i++ {
			if err := checkType(t.Field(i).Type, path+"."+t.Field(i).Name, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeName names a type that may cross inside an interface, in Go syntax:
// predeclared types, slices, arrays and maps of them, any, *tensors.Tensor.
func typeName(t reflect.Type) (string, error) {
	if t == tensorType {
		return "*tensors.Tensor", nil
	}
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 && t.Name() == "" {
		return "any", nil
	}
	notebookType := errors.New("a value of a notebook type inside an interface cannot be named in another process: give the field or variable a concrete type")
	if strings.Contains(t.PkgPath(), "traefik/yaegi") || t.Kind() == reflect.Struct && t.Name() == "" {
		return "", notebookType
	}
	if t.PkgPath() != "" || t.Name() != "" && basic[t.Name()] == nil {
		return "", fmt.Errorf("only predeclared types, slices, arrays and maps of them, and *tensors.Tensor can cross inside an interface: give the field or variable the concrete type %s", t)
	}
	switch t.Kind() {
	case reflect.Slice:
		e, err := typeName(t.Elem())
		return "[]" + e, err
	case reflect.Array:
		e, err := typeName(t.Elem())
		return "[" + strconv.Itoa(t.Len()) + "]" + e, err
	case reflect.Map:
		k, err := typeName(t.Key())
		if err != nil {
			return "", err
		}
		e, err := typeName(t.Elem())
		return "map[" + k + "]" + e, err
	}
	if basic[t.Name()] != nil {
		return t.Name(), nil
	}
	return "", fmt.Errorf("%s cannot cross inside an interface: give it a concrete type", t)
}

var basic = map[string]reflect.Type{}

func init() {
	for _, v := range []any{false, int(0), int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0),
		uint64(0), uintptr(0), float32(0), float64(0), complex64(0), complex128(0), ""} {
		t := reflect.TypeOf(v)
		basic[t.Name()] = t
	}
}

// parseType reads what typeName wrote.
func parseType(s string) (reflect.Type, error) {
	t, rest, err := parseTypePrefix(s)
	if err == nil && rest != "" {
		err = fmt.Errorf("unexpected %q", rest)
	}
	if err != nil {
		return nil, fmt.Errorf("type %q: %w", s, err)
	}
	return t, nil
}

func parseTypePrefix(s string) (reflect.Type, string, error) {
	switch {
	case strings.HasPrefix(s, "*tensors.Tensor"):
		return tensorType, s[len("*tensors.Tensor"):], nil
	case strings.HasPrefix(s, "any"):
		return reflect.TypeOf((*any)(nil)).Elem(), s[3:], nil
	case strings.HasPrefix(s, "[]"):
		e, rest, err := parseTypePrefix(s[2:])
		if err != nil {
			return nil, "", err
		}
		return reflect.SliceOf(e), rest, nil
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		n, err := strconv.Atoi(s[1:max(end, 1)])
		if end < 0 || err != nil || n < 0 {
			return nil, "", fmt.Errorf("bad array length in %q", s)
		}
		e, rest, err := parseTypePrefix(s[end+1:])
		if err != nil {
			return nil, "", err
		}
		return reflect.ArrayOf(n, e), rest, nil
	case strings.HasPrefix(s, "map["):
		k, rest, err := parseTypePrefix(s[4:])
		if err != nil {
			return nil, "", err
		}
		if !strings.HasPrefix(rest, "]") {
			return nil, "", fmt.Errorf("missing ] in %q", s)
		}
		e, rest, err := parseTypePrefix(rest[1:])
		if err != nil {
			return nil, "", err
		}
		if !k.Comparable() {
			return nil, "", fmt.Errorf("map key %s is not comparable", k)
		}
		return reflect.MapOf(k, e), rest, nil
	}
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9') {
		end++
	}
	if t := basic[s[:end]]; t != nil {
		return t, s[end:], nil
	}
	return nil, "", fmt.Errorf("unknown type at %q", s)
}
