package celltypes

import (
	"go/token"
	"go/types"
	"reflect"
)

var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// typeOf converts a reflect type. Named types become types.Named with
// their exported methods; the conversion is memoized, so recursive types
// end.
func (imp *Importer) typeOf(t reflect.Type) types.Type {
	if typ, ok := imp.types[t]; ok {
		return typ
	}
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() == "" {
		if k, ok := basicKinds[t.Kind()]; ok {
			return types.Typ[k]
		}
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return imp.named(t)
	}
	typ := imp.literal(t)
	imp.types[t] = typ
	return typ
}

// named converts a named type: its object first (so references to itself
// resolve), then its underlying type and methods.
func (imp *Importer) named(t reflect.Type) types.Type {
	pkg := imp.pkgFor(t.PkgPath(), "")
	obj := types.NewTypeName(token.NoPos, pkg, t.Name(), nil)
	n := types.NewNamed(obj, nil, nil)
	imp.types[t] = n
	n.SetUnderlying(imp.literal(t).Underlying())
	if t.Kind() == reflect.Interface {
		return n
	}
	seen := map[string]bool{}
	for _, recv := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := 0; i < recv.NumMethod(); i++ {
			m := recv.Method(i)
			if seen[m.Name] {
				continue
			}
			seen[m.Name] = true
			var rt types.Type = n
			if recv != t {
				rt = types.NewPointer(n)
			}
			sig := imp.signature(m.Type, 1, types.NewParam(token.NoPos, pkg, "", rt))
			n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, sig))
		}
	}
	return n
}

// literal converts t's structure (for a named type, its underlying type).
func (imp *Importer) literal(t reflect.Type) types.Type {
	if k, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[k]
	}
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(imp.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(imp.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(imp.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(imp.typeOf(t.Key()), imp.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, imp.typeOf(t.Elem()))
	case reflect.Func:
		return imp.signature(t, 0, nil)
	case reflect.Struct:
		var fields []*types.Var
		var tags []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			pkg := imp.pkgFor(t.PkgPath(), "")
			if f.PkgPath != "" {
				pkg = imp.pkgFor(f.PkgPath, "")
			}
			fields = append(fields, types.NewField(token.NoPos, pkg, f.Name, imp.typeOf(f.Type), f.Anonymous))
			tags = append(tags, string(f.Tag))
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		var methods []*types.Func
		for i := 0; i < t.NumMethod(); i++ {
			m := t.Method(i)
			pkg := imp.pkgFor(t.PkgPath(), "")
			if m.PkgPath != "" {
				pkg = imp.pkgFor(m.PkgPath, "")
			}
			methods = append(methods, types.NewFunc(token.NoPos, pkg, m.Name, imp.signature(m.Type, 0, nil)))
		}
		return types.NewInterfaceType(methods, nil).Complete()
	}
	return types.Typ[types.Invalid]
}

// signature converts a func type, skipping its first skip parameters (a
// method value's receiver).
func (imp *Importer) signature(t reflect.Type, skip int, recv *types.Var) *types.Signature {
	var params, results []*types.Var
	for i := skip; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", imp.typeOf(t.In(i))))
	}
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(token.NoPos, nil, "", imp.typeOf(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}
