package transfer

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unsafe"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// metaKey is the safetensors metadata entry that holds the values' tree.
const metaKey = "goaccel.transfer"

// Error says which part of which value cannot cross to another process.
type Error struct {
	Path   string // e.g. "argument 1 (cfg).Loader"
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

var (
	tensorType = reflect.TypeOf((*tensors.Tensor)(nil))
	marshaler  = reflect.TypeOf((*encoding.BinaryMarshaler)(nil)).Elem()
	bytesType  = reflect.TypeOf([]byte(nil))
)

// Encode writes values to w as one message. names label the values in
// errors ("argument 1 (cfg)"); they may be shorter than values. Nothing is
// written when a value cannot cross.
func Encode(w io.Writer, values []reflect.Value, names []string) error {
	e := &encoder{tensors: map[string]*tensors.Tensor{}, ids: map[*tensors.Tensor]string{}, visiting: map[uintptr]bool{}}
	tree := make([]any, len(values))
	for i, v := range values {
		name := fmt.Sprintf("value %d", i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		n, err := e.value(v, name)
		if err != nil {
			return err
		}
		tree[i] = n
	}
	meta, err := json.Marshal(tree)
	if err != nil {
		return fmt.Errorf("transfer: encode: %w", err)
	}
	if err := nn.WriteSafetensors(w, e.tensors, map[string]string{metaKey: string(meta)}); err != nil {
		return fmt.Errorf("transfer: write: %w", err)
	}
	return nil
}

type encoder struct {
	tensors  map[string]*tensors.Tensor
	ids      map[*tensors.Tensor]string // a tensor reached twice is sent once
	visiting map[uintptr]bool           // pointers on the current path, to refuse cycles
}

func (e *encoder) value(v reflect.Value, path string) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if err := refusedKind(t, path); err != nil {
		return nil, err
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(marshaler) && t.PkgPath() != "main" {
		b, err := v.Interface().(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			return nil, &Error{Path: path, Reason: fmt.Sprintf("%s: MarshalBinary: %v", t, err)}
		}
		return map[string]any{"$bin": base64.StdEncoding.EncodeToString(b)}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return float(v.Float(), t.Bits()), nil
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return []any{float(real(c), t.Bits()/2), float(imag(c), t.Bits()/2)}, nil
	case reflect.String:
		return v.String(), nil
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return base64.StdEncoding.EncodeToString(v.Convert(bytesType).Bytes()), nil
		}
		return e.list(v, path)
	case reflect.Array:
		return e.list(v, path)
	case reflect.Map:
		return e.mapping(v, path)
	case reflect.Struct:
		return e.structure(v, path)
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		if t == tensorType {
			return e.tensor(v.Interface().(*tensors.Tensor)), nil
		}
		p := v.Pointer()
		if e.visiting[p] {
			return nil, &Error{Path: path, Reason: fmt.Sprintf("a %s that points back to itself (a cycle) cannot be copied", t)}
		}
		e.visiting[p] = true
		defer delete(e.visiting, p)
		return e.value(v.Elem(), path)
	case reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		dyn := v.Elem()
		if err := refusedKind(dyn.Type(), path); err != nil {
			return nil, err
		}
		name, err := typeName(dyn.Type())
		if err != nil {
			return nil, &Error{Path: path, Reason: fmt.Sprintf("an interface holding %s: %v", dyn.Type(), err)}
		}
		inner, err := e.value(dyn, path)
		if err != nil {
			return nil, err
		}
		return map[string]any{"$type": name, "$v": inner}, nil
	}
	return nil, &Error{Path: path, Reason: fmt.Sprintf("values of type %s cannot be copied", t)}
}

// float encodes a float, with NaN and infinities as strings (JSON has none).
func float(f float64, bits int) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, bits))
}

func (e *encoder) list(v reflect.Value, path string) (any, error) {
	out := make([]any, v.Len())
	for i := range out {
		n, err := e.value(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// mapping encodes a map with string keys as an object, any other as a list
// of [key, value] pairs, both in key order.
func (e *encoder) mapping(v reflect.Value, path string) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	keys := v.MapKeys()
	type pair struct {
		k    reflect.Value
		text string
	}
	ps := make([]pair, len(keys))
	for i, k := range keys {
		ps[i] = pair{k, fmt.Sprint(k.Interface())}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].text < ps[j].text })
	if v.Type().Key().Kind() == reflect.String {
		out := make(map[string]any, len(ps))
		for _, p := range ps {
			n, err := e.value(v.MapIndex(p.k), fmt.Sprintf("%s[%q]", path, p.k.String()))
			if err != nil {
				return nil, err
			}
			out[p.k.String()] = n
		}
		return out, nil
	}
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		kp := fmt.Sprintf("%s[%s]", path, p.text)
		k, err := e.value(p.k, kp+" (key)")
		if err != nil {
			return nil, err
		}
		n, err := e.value(v.MapIndex(p.k), kp)
		if err != nil {
			return nil, err
		}
		out = append(out, []any{k, n})
	}
	return out, nil
}

func (e *encoder) structure(v reflect.Value, path string) (any, error) {
	t := v.Type()
	if err := checkFields(t, path); err != nil {
		return nil, err
	}
	if !v.CanAddr() {
		c := reflect.New(t).Elem()
		c.Set(v)
		v = c
	}
	out := make(map[string]any, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		n, err := e.value(field(v, i), path+"."+f.Name)
		if err != nil {
			return nil, err
		}
		out[f.Name] = n
	}
	return out, nil
}

// field returns field i of the addressable struct v, readable and settable
// even when unexported (a compiled worker's own types keep their unexported
// fields; checkFields has made sure the struct is one of the user's).
func field(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	if f.CanSet() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

func (e *encoder) tensor(t *tensors.Tensor) any {
	id, ok := e.ids[t]
	if !ok {
		id = "t" + strconv.Itoa(len(e.ids))
		e.ids[t] = id
		e.tensors[id] = t
	}
	return map[string]any{"$tensor": id, "grad": t.RequiresGrad()}
}
