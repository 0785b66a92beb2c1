package interp

// goaccel: the keys of a map whose key type is an interface. A value of a
// type the interpreted code declares is boxed in an interface with its type
// (boxes.go), and two boxes of equal values are different Go values (each
// holds its own reflect.Value, and the node that made it), so as map keys
// they were different keys: m[k] = 1 with k an any holding point{1, 2}
// added a key beside m[point{1, 2}]'s. Such keys are canonical boxes: one
// node per type, and the value interned, so that equal keys of one type are
// one Go value. The table of interned keys keeps every distinct key a map
// of the interpreter has had.

import (
	"reflect"
	"sync"
)

// keyTable interns the keys of maps with interface keys.
type keyTable struct {
	mu    sync.Mutex
	nodes map[string]*node // type id → the node of its boxes
	keys  map[internedKey]reflect.Value
}

type internedKey struct {
	id string // the key's type
	v  interface{}
}

// genMapKey returns the key k of an index of a map of type mt: a canonical
// box when the map's keys are interfaces and k's value is (or is boxed as)
// a value of an interpreted type.
func genMapKey(mt *itype, k *node) func(*frame) reflect.Value {
	value := genValue(k)
	if !interfaceKeys(mt) {
		return value
	}
	interp := k.interp
	if t := boxNode(k).typ; t != nil && !isInterfaceType(t) {
		// A value of a concrete type, or one converted to an interface.
		if !boxedInInterface(t) {
			return value
		}
		return func(f *frame) reflect.Value { return interp.canonicalKey(t, value(f)) }
	}
	return func(f *frame) reflect.Value {
		v := value(f)
		if vi, ok := boxOf(v); ok {
			return interp.canonicalKey(vi.node.typ, vi.value)
		}
		return v
	}
}

// interfaceKeys reports whether mt is a map type whose keys are interfaces.
func interfaceKeys(mt *itype) bool {
	for mt != nil && mt.cat == linkedT {
		mt = mt.val
	}
	switch {
	case mt == nil:
		return false
	case mt.cat == mapT:
		return mt.key != nil && isInterfaceType(mt.key)
	case mt.cat == valueT:
		return mt.rtype.Kind() == reflect.Map && mt.rtype.Key().Kind() == reflect.Interface
	}
	return false
}

// canonicalKey returns the canonical box of v, of interpreted type t.
func (interp *Interpreter) canonicalKey(t *itype, v reflect.Value) reflect.Value {
	v = valueInterfaceValue(v)
	id := t.id()
	k := internedKey{id, v.Interface()}
	kt := &interp.mapKeys
	kt.mu.Lock()
	defer kt.mu.Unlock()
	if kt.nodes == nil {
		kt.nodes = map[string]*node{}
		kt.keys = map[internedKey]reflect.Value{}
	}
	n, ok := kt.nodes[id]
	if !ok {
		n = &node{typ: t, interp: interp}
		kt.nodes[id] = n
	}
	c, ok := kt.keys[k] // as Go's map does, panics for a value that is not comparable
	if !ok {
		c = reflect.New(v.Type()).Elem()
		c.Set(v)
		kt.keys[k] = c
	}
	return reflect.ValueOf(valueInterface{n, c})
}
