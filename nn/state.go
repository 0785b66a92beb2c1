package nn

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/goaccel/goaccel/tensors"
)

// StateDict returns m's parameters and buffers (NamedBuffersOf: BatchNorm's running statistics)
// by name. The tensors are detached views of them (they share storage, as PyTorch's state_dict
// does): save them, do not train through them.
func StateDict(m Module) map[string]*tensors.Tensor {
	ps := stateEntries(m)
	sd := make(map[string]*tensors.Tensor, len(ps))
	for _, p := range ps {
		sd[p.Name] = p.Param.Detach()
	}
	return sd
}

// LoadStateDict copies the tensors of sd into m's parameters, converting dtype and device as
// needed. It is strict, like PyTorch's default: if any parameter is missing from sd, sd has a key m
// does not, or a shape differs, it changes nothing and returns an error naming every such key.
func LoadStateDict(m Module, sd map[string]*tensors.Tensor) error {
	missing, unexpected, shapes := diffStateDict(m, sd)
	if len(missing)+len(unexpected)+len(shapes) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing keys: "+strings.Join(missing, ", "))
		}
		if len(unexpected) > 0 {
			parts = append(parts, "unexpected keys: "+strings.Join(unexpected, ", "))
		}
		if len(shapes) > 0 {
			parts = append(parts, "shape mismatch: "+strings.Join(shapes, "; "))
		}
		return fmt.Errorf("nn: load state dict into %T: %s", m, strings.Join(parts, "; "))
	}
	copyStateDict(m, sd)
	return nil
}

// LoadStateDictNonStrict is LoadStateDict with PyTorch's strict=False: it loads the keys m and sd
// share and returns the parameter names sd lacks and the keys of sd m lacks. A shape mismatch on a
// shared key is still an error, and then nothing is loaded.
func LoadStateDictNonStrict(m Module, sd map[string]*tensors.Tensor) (missing, unexpected []string, err error) {
	missing, unexpected, shapes := diffStateDict(m, sd)
	if len(shapes) > 0 {
		return missing, unexpected, fmt.Errorf("nn: load state dict into %T: shape mismatch: %s", m, strings.Join(shapes, "; "))
	}
	copyStateDict(m, sd)
	return missing, unexpected, nil
}

// stateEntries are the tensors of a state dict: m's parameters, then its buffers, each once.
func stateEntries(m Module) []NamedParameter {
	return uniqueParameters(append(m.NamedParameters(), NamedBuffersOf(m)...))
}

// diffStateDict lists m's parameters and buffers absent from sd, sd's keys absent from m
// (sorted), and the shared keys whose shapes differ.
func diffStateDict(m Module, sd map[string]*tensors.Tensor) (missing, unexpected, shapes []string) {
	ps := stateEntries(m)
	have := make(map[string]bool, len(ps))
	for _, p := range ps {
		have[p.Name] = true
		v, ok := sd[p.Name]
		if !ok || v == nil {
			missing = append(missing, p.Name)
			continue
		}
		if !slices.Equal(v.Shape(), p.Param.Shape()) {
			shapes = append(shapes, fmt.Sprintf("%s: checkpoint %v, model %v", p.Name, v.Shape(), p.Param.Shape()))
		}
	}
	for k := range sd {
		if !have[k] {
			unexpected = append(unexpected, k)
		}
	}
	sort.Strings(unexpected)
	return missing, unexpected, shapes
}

// copyStateDict copies the entries of sd that name parameters or buffers of m, outside autograd.
func copyStateDict(m Module, sd map[string]*tensors.Tensor) {
	tensors.NoGrad(func() {
		for _, p := range stateEntries(m) {
			v := sd[p.Name]
			if v == nil {
				continue
			}
			if v.DType() != p.Param.DType() {
				v = v.AsType(p.Param.DType())
			}
			if v.Device() != p.Param.Device() {
				v = v.To(p.Param.Device())
			}
			p.Param.CopyFrom(v)
		}
	})
}
