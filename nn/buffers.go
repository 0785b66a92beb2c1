package nn

import (
	"reflect"
	"strings"

	"github.com/goaccel/goaccel/tensors"
)

// Buffered is implemented by modules with buffers: state that is saved, loaded and moved with the
// model but not trained, as BatchNorm's running statistics (torch.nn.Module.register_buffer).
// NamedBuffers names them as NamedParameters names parameters ("running_mean", or "bn1.running_mean"
// in a container).
type Buffered interface {
	NamedBuffers() []NamedParameter
}

// NamedBuffersOf returns m's buffers with dotted names: m's own NamedBuffers when m is Buffered;
// otherwise those of the modules among m's exported fields (structs, pointers, slices, arrays,
// interfaces, as SetTraining finds modules), each named with the prefix its parameters have in
// m.NamedParameters, so that a model struct defined in a notebook cell needs no NamedBuffers of its
// own. A field module without parameters is named by its field's name in lower case (and its
// index, for an element of a slice).
func NamedBuffersOf(m Module) []NamedParameter {
	if m == nil {
		return nil
	}
	if b, ok := m.(Buffered); ok {
		return b.NamedBuffers()
	}
	var out []NamedParameter
	params := m.NamedParameters()
	forFieldModules(reflect.ValueOf(m), nil, map[uintptr]bool{}, func(path []string, sub Module) {
		bs := NamedBuffersOf(sub)
		if len(bs) == 0 {
			return
		}
		prefix := prefixIn(params, sub)
		if prefix == "" {
			prefix = strings.ToLower(strings.Join(path, "."))
		}
		for _, b := range bs {
			out = append(out, NamedParameter{Name: prefix + "." + b.Name, Param: b.Param})
		}
	})
	return out
}

// PrefixedBuffers is Prefixed for buffers: the building block of NamedBuffers for a model made of
// named submodules.
func PrefixedBuffers(prefix string, m Module) []NamedParameter {
	bs := NamedBuffersOf(m)
	out := make([]NamedParameter, len(bs))
	for i, b := range bs {
		out[i] = NamedParameter{Name: prefix + "." + b.Name, Param: b.Param}
	}
	return out
}

// prefixIn returns the prefix under which sub's first parameter appears in params ("" when it does
// not, or sub has none).
func prefixIn(params []NamedParameter, sub Module) string {
	own := sub.NamedParameters()
	if len(own) == 0 {
		return ""
	}
	for _, p := range params {
		if p.Param == own[0].Param && strings.HasSuffix(p.Name, "."+own[0].Name) {
			return strings.TrimSuffix(p.Name, "."+own[0].Name)
		}
	}
	return ""
}

var moduleType = reflect.TypeOf((*Module)(nil)).Elem()

// interpretedBox is the interpreter's box of a value of a type the interpreted code declares,
// which its interface wrappers hold (in their IValue field).
type interpretedBox interface{ InterpretedValue() any }

// unbox returns what v holds when it is the interpreter's box of a value (or an interface
// holding one), else v.
func unbox(v reflect.Value) reflect.Value {
	for v.IsValid() && v.CanInterface() {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			v = v.Elem()
			continue
		}
		b, ok := v.Interface().(interpretedBox)
		if !ok || v.Kind() != reflect.Struct {
			return v
		}
		v = reflect.ValueOf(b.InterpretedValue())
	}
	return v
}

// forFieldModules calls fn for each module among v's exported fields (not v itself), with its
// path of field names, without descending into the modules it reports (each reports its own).
func forFieldModules(v reflect.Value, path []string, seen map[uintptr]bool, fn func(path []string, m Module)) {
	v = unbox(v)
	if !v.IsValid() {
		return
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == tensorType || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		forFieldModules(v.Elem(), path, seen, fn)
	case reflect.Struct:
		// The interpreter's wrappers of interpreted modules (types named "_…") hold the module in
		// a field whose name is no part of the model's.
		wrapper := strings.HasPrefix(v.Type().Name(), "_")
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if !f.CanInterface() || !mayHoldModules(f.Type()) {
				continue
			}
			p := path
			if !wrapper {
				p = append(path[:len(path):len(path)], v.Type().Field(i).Name)
			}
			visitField(f, p, seen, fn)
		}
	}
}

// visitField reports f when it holds a module, else looks inside it.
func visitField(f reflect.Value, path []string, seen map[uintptr]bool, fn func([]string, Module)) {
	if f.Kind() == reflect.Slice || f.Kind() == reflect.Array {
		if !mayHoldModules(f.Type().Elem()) {
			return
		}
		for i := 0; i < f.Len(); i++ {
			visitField(f.Index(i), append(path[:len(path):len(path)], itoa(i)), seen, fn)
		}
		return
	}
	if (f.Kind() == reflect.Pointer || f.Kind() == reflect.Interface) && f.IsNil() {
		return
	}
	if f.Type().Implements(moduleType) || (f.Kind() == reflect.Interface && f.Elem().Type().Implements(moduleType)) {
		m, ok := f.Interface().(Module)
		if ok && m != nil {
			if f.Kind() == reflect.Pointer {
				if seen[f.Pointer()] {
					return
				}
				seen[f.Pointer()] = true
			}
			fn(path, m)
			return
		}
	}
	forFieldModules(f, path, seen, fn)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// forEachModule calls fn for m and every module reachable from it through exported fields
// (containers' layers included), each once.
func forEachModule(m Module, fn func(Module)) {
	if m == nil {
		return
	}
	seen := map[uintptr]bool{}
	var walk func(Module)
	walk = func(x Module) {
		fn(x)
		v := reflect.ValueOf(x)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem() // x itself is marked seen by whoever found it
		}
		forFieldModules(v, nil, seen, func(_ []string, sub Module) { walk(sub) })
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer {
		seen[v.Pointer()] = true
	}
	walk(m)
}

// bufferTensors returns the tensors of m's buffers, each once.
func bufferTensors(m Module) []*tensors.Tensor {
	bs := uniqueParameters(NamedBuffersOf(m))
	out := make([]*tensors.Tensor, len(bs))
	for i, b := range bs {
		out[i] = b.Param
	}
	return out
}
