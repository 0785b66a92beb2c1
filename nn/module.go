package nn

import (
	"reflect"

	"github.com/goaccel/goaccel/tensors"
)

// Module is a layer or a model: a function of one tensor with trainable parameters.
// NamedParameters lists the parameters in a fixed order with PyTorch-style dotted names; Parameters
// returns the same tensors in the same order (ParametersOf(m) computes it from NamedParameters).
// A parameter shared by two submodules (tied weights, as a GPT's token embedding and output
// layer) may be listed under both names: ParametersOf, StateDict, LoadStateDict and therefore the
// optimizers see it once, under its first name, and its gradient is the sum of both uses.
type Module interface {
	Forward(x *tensors.Tensor) *tensors.Tensor
	Parameters() []*tensors.Tensor
	NamedParameters() []NamedParameter
}

// NamedParameter is a parameter with its dotted name, e.g. "fc1.weight".
type NamedParameter struct {
	Name  string
	Param *tensors.Tensor
}

// Trainer is implemented by modules that behave differently in training and evaluation (Dropout)
// and by containers, which pass the mode on to their children. Modules start in training mode.
type Trainer interface {
	Train(on bool)
	Training() bool
}

// SetTraining switches m to training (true) or evaluation (false) mode, like PyTorch's
// model.train() and model.eval(). A module that implements Trainer is switched through it (and
// containers pass the mode on). For any other module, SetTraining looks through its exported
// fields (structs, pointers, slices, arrays, interfaces) for modules that do, so a model struct
// defined in a notebook cell needs no Train method of its own: its Dropout fields are found.
func SetTraining(m Module, on bool) {
	if m == nil {
		return
	}
	forTrainers(reflect.ValueOf(m), map[uintptr]bool{}, func(t Trainer) bool {
		t.Train(on)
		return true
	})
}

// IsTraining reports whether m is in training mode: the mode of m if it implements Trainer, else
// of the first module found in its fields that does; a module with no mode counts as training.
func IsTraining(m Module) bool {
	training := true
	if m == nil {
		return training
	}
	forTrainers(reflect.ValueOf(m), map[uintptr]bool{}, func(t Trainer) bool {
		training = t.Training()
		return false
	})
	return training
}

var tensorType = reflect.TypeOf((*tensors.Tensor)(nil))

// mayHoldModules reports whether a value of type t can be or contain a module (so that walking a
// []float32 field does not visit every number).
func mayHoldModules(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface, reflect.Struct:
		return true
	case reflect.Pointer:
		return t != tensorType
	case reflect.Slice, reflect.Array:
		return mayHoldModules(t.Elem())
	}
	return false
}

// forTrainers calls fn on the Trainers reachable from v: v itself if it is one (without looking
// inside it, since a Trainer passes the mode on itself), else the Trainers among its exported
// fields, recursively. It stops when fn returns false, and reports whether to continue. Interpreted
// values that reach compiled code inside an interface wrapper are found through the wrapper's
// fields the same way.
func forTrainers(v reflect.Value, seen map[uintptr]bool, fn func(Trainer) bool) bool {
	v = unbox(v)
	if !v.IsValid() {
		return true
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return true
		}
		v = v.Elem()
	}
	if v.Type() == tensorType {
		return true
	}
	if v.CanInterface() {
		if t, ok := v.Interface().(Trainer); ok {
			if v.Kind() != reflect.Pointer || !v.IsNil() {
				return fn(t)
			}
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return true
		}
		seen[v.Pointer()] = true
		return forTrainers(v.Elem(), seen, fn)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanInterface() && !forTrainers(f, seen, fn) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldModules(v.Type().Elem()) {
			return true
		}
		if v.Kind() == reflect.Slice && v.Len() > 0 {
			p := v.Pointer()
			if seen[p] {
				return true
			}
			seen[p] = true
		}
		for i := 0; i < v.Len(); i++ {
			if !forTrainers(v.Index(i), seen, fn) {
				return false
			}
		}
	}
	return true
}

// Prefixed returns m's named parameters with "prefix." in front of each name: the building block of
// NamedParameters for a model made of named submodules.
func Prefixed(prefix string, m Module) []NamedParameter {
	ps := m.NamedParameters()
	out := make([]NamedParameter, len(ps))
	for i, p := range ps {
		out[i] = NamedParameter{Name: prefix + "." + p.Name, Param: p.Param}
	}
	return out
}

// ParametersOf returns the tensors of m.NamedParameters(), in order and each once: a ready-made
// Parameters body.
func ParametersOf(m Module) []*tensors.Tensor {
	ps := uniqueParameters(m.NamedParameters())
	out := make([]*tensors.Tensor, len(ps))
	for i, p := range ps {
		out[i] = p.Param
	}
	return out
}

// uniqueParameters drops the entries of ps whose tensor an earlier entry already listed.
func uniqueParameters(ps []NamedParameter) []NamedParameter {
	seen := make(map[*tensors.Tensor]bool, len(ps))
	out := ps[:0:0]
	for _, p := range ps {
		if !seen[p.Param] {
			seen[p.Param] = true
			out = append(out, p)
		}
	}
	return out
}

// NumParameters returns the number of scalar parameters of m.
func NumParameters(m Module) int {
	n := 0
	seen := map[*tensors.Tensor]bool{}
	for _, p := range m.Parameters() {
		if !seen[p] {
			seen[p] = true
			n += p.Numel()
		}
	}
	return n
}

// mode is embedded by modules with a training mode. The zero value is training mode, as a new
// PyTorch module is.
type mode struct{ eval bool }

// Train sets training mode (true) or evaluation mode (false).
func (m *mode) Train(on bool) { m.eval = !on }

// Training reports whether the module is in training mode.
func (m *mode) Training() bool { return !m.eval }
