package nn

import (
	"github.com/goaccel/goaccel/tensors"
)

// Module is a layer or a model: a function of one tensor with trainable parameters.
// NamedParameters lists the parameters in a fixed order with PyTorch-style dotted names; Parameters
// returns the same tensors in the same order (ParametersOf(m) computes it from NamedParameters).
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
// model.train() and model.eval(). Modules that do not implement Trainer have no mode and are left
// as they are; a custom model holding a Dropout should implement Trainer and call SetTraining on
// its children.
func SetTraining(m Module, on bool) {
	if t, ok := m.(Trainer); ok {
		t.Train(on)
	}
}

// IsTraining reports whether m is in training mode; modules without a mode count as training.
func IsTraining(m Module) bool {
	if t, ok := m.(Trainer); ok {
		return t.Training()
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

// ParametersOf returns the tensors of m.NamedParameters(), in order: a ready-made Parameters body.
func ParametersOf(m Module) []*tensors.Tensor {
	ps := m.NamedParameters()
	out := make([]*tensors.Tensor, len(ps))
	for i, p := range ps {
		out[i] = p.Param
	}
	return out
}

// NumParameters returns the number of scalar parameters of m.
func NumParameters(m Module) int {
	n := 0
	for _, p := range m.Parameters() {
		n += p.Numel()
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
