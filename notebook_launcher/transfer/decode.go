package transfer

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

var unmarshaler = reflect.TypeOf((*encoding.BinaryUnmarshaler)(nil)).Elem()

// Decode reads one message and converts its values to types, in order.
// names label the values in errors, as for Encode.
func Decode(r io.Reader, types []reflect.Type, names []string) ([]reflect.Value, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("transfer: read: %w", err)
	}
	return Unmarshal(data, types, names)
}

// Message is a message decoded but not yet converted: its receiver can
// learn how many values it holds (Len) before choosing their types
// (Values).
type Message struct {
	tree    []any
	tensors map[string]*tensors.Tensor
}

// DecodeMessage decodes the message in data (which it does not keep).
func DecodeMessage(data []byte) (*Message, error) {
	sd, md, err := nn.DecodeSafetensors(data)
	if err != nil {
		return nil, fmt.Errorf("transfer: read: %w", err)
	}
	raw, ok := md[metaKey]
	if !ok {
		return nil, fmt.Errorf("transfer: read: the message has no %s metadata (not written by transfer.Encode)", metaKey)
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var tree []any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("transfer: read the values: %w", err)
	}
	return &Message{tree: tree, tensors: sd}, nil
}

// Len returns how many values m holds.
func (m *Message) Len() int { return len(m.tree) }

// Values converts m's values to types, in order. names label the values in
// errors, as for Encode.
func (m *Message) Values(types []reflect.Type, names []string) ([]reflect.Value, error) {
	if len(m.tree) != len(types) {
		return nil, fmt.Errorf("transfer: the message holds %d values; %d were expected", len(m.tree), len(types))
	}
	d := &decoder{tensors: m.tensors}
	out := make([]reflect.Value, len(types))
	for i, t := range types {
		name := fmt.Sprintf("value %d", i+1)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		v := reflect.New(t).Elem()
		if err := d.value(m.tree[i], v, name); err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Marshal is Encode into a byte slice.
func Marshal(values []reflect.Value, names []string) ([]byte, error) {
	var b bytes.Buffer
	if err := Encode(&b, values, names); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Unmarshal is Decode from a byte slice.
func Unmarshal(data []byte, types []reflect.Type, names []string) ([]reflect.Value, error) {
	m, err := DecodeMessage(data)
	if err != nil {
		return nil, err
	}
	return m.Values(types, names)
}

type decoder struct {
	tensors map[string]*tensors.Tensor
}

func mismatch(path string, n any, t reflect.Type) error {
	got := "null"
	switch n := n.(type) {
	case bool:
		got = "a boolean"
	case json.Number:
		got = "the number " + n.String()
	case string:
		got = "a string"
	case []any:
		got = "a list"
	case map[string]any:
		got = "a struct or map"
	}
	return &Error{Path: path, Reason: fmt.Sprintf("cannot use %s as %s", got, t)}
}

// value stores node n into the settable v.
func (d *decoder) value(n any, v reflect.Value, path string) error {
	t := v.Type()
	if n == nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			return nil // v is already the zero value
		}
		return mismatch(path, n, t)
	}
	if obj, ok := n.(map[string]any); ok {
		if b, ok := obj["$bin"].(string); ok && reflect.PointerTo(t).Implements(unmarshaler) {
			raw, err := base64.StdEncoding.DecodeString(b)
			if err != nil {
				return &Error{Path: path, Reason: "bad encoding: " + err.Error()}
			}
			if err := v.Addr().Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(raw); err != nil {
				return &Error{Path: path, Reason: fmt.Sprintf("%s: UnmarshalBinary: %v", t, err)}
			}
			return nil
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		b, ok := n.(bool)
		if !ok {
			return mismatch(path, n, t)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return number(n, v, path)
	case reflect.Complex64, reflect.Complex128:
		l, ok := n.([]any)
		if !ok || len(l) != 2 {
			return mismatch(path, n, t)
		}
		re, im := reflect.New(reflect.TypeOf(0.0)).Elem(), reflect.New(reflect.TypeOf(0.0)).Elem()
		if err := number(l[0], re, path); err != nil {
			return err
		}
		if err := number(l[1], im, path); err != nil {
			return err
		}
		v.SetComplex(complex(re.Float(), im.Float()))
	case reflect.String:
		s, ok := n.(string)
		if !ok {
			return mismatch(path, n, t)
		}
		v.SetString(s)
	case reflect.Slice:
		if s, ok := n.(string); ok && t.Elem().Kind() == reflect.Uint8 {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return &Error{Path: path, Reason: "bad byte encoding: " + err.Error()}
			}
			v.Set(reflect.ValueOf(b).Convert(t))
			return nil
		}
		l, ok := n.([]any)
		if !ok {
			return mismatch(path, n, t)
		}
		v.Set(reflect.MakeSlice(t, len(l), len(l)))
		return d.list(l, v, path)
	case reflect.Array:
		l, ok := n.([]any)
		if !ok {
			return mismatch(path, n, t)
		}
		if len(l) != t.Len() {
			return &Error{Path: path, Reason: fmt.Sprintf("cannot use a list of %d elements as %s", len(l), t)}
		}
		return d.list(l, v, path)
	case reflect.Map:
		return d.mapping(n, v, path)
	case reflect.Struct:
		obj, ok := n.(map[string]any)
		if !ok {
			return mismatch(path, n, t)
		}
		return d.structure(obj, v, path)
	case reflect.Pointer:
		if t == tensorType {
			return d.tensor(n, v, path)
		}
		p := reflect.New(t.Elem())
		if err := d.value(n, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Interface:
		obj, ok := n.(map[string]any)
		name, _ := obj["$type"].(string)
		if !ok || name == "" {
			return mismatch(path, n, t)
		}
		dt, err := parseType(name)
		if err != nil {
			return &Error{Path: path, Reason: err.Error()}
		}
		if !dt.Implements(t) {
			return &Error{Path: path, Reason: fmt.Sprintf("%s does not implement %s", dt, t)}
		}
		dv := reflect.New(dt).Elem()
		if err := d.value(obj["$v"], dv, path); err != nil {
			return err
		}
		v.Set(dv)
	default:
		return refusedKind(t, path)
	}
	return nil
}

// number stores a JSON number (or "NaN", "+Inf", "-Inf") into a numeric v,
// converting between numeric types when the value fits.
func number(n any, v reflect.Value, path string) error {
	t := v.Type()
	var text string
	switch x := n.(type) {
	case json.Number:
		text = x.String()
	case string:
		if x != "NaN" && x != "+Inf" && x != "-Inf" {
			return mismatch(path, n, t)
		}
		text = x
	default:
		return mismatch(path, n, t)
	}
	bad := func() error { return &Error{Path: path, Reason: fmt.Sprintf("%s does not fit in %s", text, t)} }
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(text, t.Bits())
		if err != nil && !strings.Contains(err.Error(), "range") {
			return bad()
		}
		v.SetFloat(f)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(text, 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
				return bad()
			}
			i = int64(f)
		}
		if v.OverflowInt(i) {
			return bad()
		}
		v.SetInt(i)
		return nil
	default: // unsigned
		u, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(text, 64)
			if ferr != nil || f != math.Trunc(f) || f < 0 || f > 1<<63 {
				return bad()
			}
			u = uint64(f)
		}
		if v.OverflowUint(u) {
			return bad()
		}
		v.SetUint(u)
		return nil
	}
}

func (d *decoder) list(l []any, v reflect.Value, path string) error {
	for i, e := range l {
		if err := d.value(e, v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) mapping(n any, v reflect.Value, path string) error {
	t := v.Type()
	m := reflect.MakeMap(t)
	switch x := n.(type) {
	case map[string]any:
		if t.Key().Kind() != reflect.String {
			return mismatch(path, n, t)
		}
		for k, e := range x {
			ev := reflect.New(t.Elem()).Elem()
			if err := d.value(e, ev, fmt.Sprintf("%s[%q]", path, k)); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
	case []any:
		for i, p := range x {
			kv, ok := p.([]any)
			if !ok || len(kv) != 2 {
				return &Error{Path: path, Reason: fmt.Sprintf("entry %d is not a key and a value", i)}
			}
			k, ev := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			if err := d.value(kv[0], k, fmt.Sprintf("%s (key %d)", path, i)); err != nil {
				return err
			}
			if err := d.value(kv[1], ev, fmt.Sprintf("%s[%v]", path, k.Interface())); err != nil {
				return err
			}
			m.SetMapIndex(k, ev)
		}
	default:
		return mismatch(path, n, t)
	}
	v.Set(m)
	return nil
}

// structure fills a struct from an object keyed by field names. Names match
// exactly, or across the interpreter's spelling of unexported fields (yaegi
// exports field x of a cell's struct as Xx).
func (d *decoder) structure(obj map[string]any, v reflect.Value, path string) error {
	t := v.Type()
	if err := checkFields(t, path); err != nil {
		return err
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		i := fieldIndex(t, name)
		if i < 0 {
			return &Error{Path: path, Reason: fmt.Sprintf("the receiving %s has no field %s (was the type redefined with other fields?)", typeLabel(t), strings.TrimPrefix(name, "X"))}
		}
		if err := d.value(obj[name], field(v, i), path+"."+t.Field(i).Name); err != nil {
			return err
		}
	}
	return nil
}

func fieldIndex(t reflect.Type, name string) int {
	candidates := []string{name, "X" + name}
	if len(name) > 1 && name[0] == 'X' {
		candidates = append(candidates, name[1:])
	}
	for _, c := range candidates {
		if f, ok := t.FieldByName(c); ok && len(f.Index) == 1 {
			return f.Index[0]
		}
	}
	return -1
}

func typeLabel(t reflect.Type) string {
	if t.Name() == "" {
		return "struct"
	}
	return t.String()
}

func (d *decoder) tensor(n any, v reflect.Value, path string) error {
	obj, ok := n.(map[string]any)
	id, _ := obj["$tensor"].(string)
	if !ok || id == "" {
		return mismatch(path, n, v.Type())
	}
	tn, ok := d.tensors[id]
	if !ok {
		return &Error{Path: path, Reason: fmt.Sprintf("tensor %s is missing from the message", id)}
	}
	if g, _ := obj["grad"].(bool); g && !tn.RequiresGrad() {
		tn.SetRequiresGrad(true)
	}
	v.Set(reflect.ValueOf(tn))
	return nil
}
