package transformers

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers/internal/snapshot"
)

// LoadWeights loads the weights of the snapshot folder dir into m, a model of a registered
// family built by hand (from LoadConfig and the family's constructor) or already trained, with
// FromPretrained's rules; it returns the report without writing it anywhere.
func LoadWeights(m Model, dir string, ignoreMismatchedSizes bool) (LoadReport, error) {
	f, err := familyOf(m.PretrainedConfig().Base().ModelType)
	if err != nil {
		return LoadReport{}, fmt.Errorf("transformers: load weights: %w", err)
	}
	w, err := snapshot.Read(dir)
	if err != nil {
		return LoadReport{}, fmt.Errorf("transformers: load weights: %w", err)
	}
	r, err := loadWeights(m, f, w, ignoreMismatchedSizes)
	if err != nil {
		return LoadReport{}, fmt.Errorf("transformers: load weights from %s: %w", dir, err)
	}
	r.Model, r.Checkpoint = m.Architecture(), dir
	return r, nil
}

// slot is one tensor of the model with every name it has (more than one when tied).
type slot struct {
	names []string
	param *tensors.Tensor
}

// loadWeights copies w's tensors into m's parameters and buffers by name. The checkpoint's
// names are mapped onto the model's first: the base model prefix is added when the model has
// it and the checkpoint does not (a base model's checkpoint loaded into a task model), and
// removed in the opposite case; LayerNorm's legacy gamma and beta become weight and bias; the
// family's ignored keys are dropped. A shape mismatch is an error naming every such tensor, or
// with ignoreMismatched a report entry; nothing is copied before every check has passed.
func loadWeights(m nn.Module, f *Family, w *snapshot.Weights, ignoreMismatched bool) (LoadReport, error) {
	var slots []*slot
	byTensor := map[*tensors.Tensor]*slot{}
	byName := map[string]*slot{}
	for _, p := range append(m.NamedParameters(), nn.NamedBuffersOf(m)...) {
		s := byTensor[p.Param]
		if s == nil {
			s = &slot{param: p.Param}
			byTensor[p.Param] = s
			slots = append(slots, s)
		}
		s.names = append(s.names, p.Name)
		byName[p.Name] = s
	}
	ckpt := renameCheckpoint(w, f, byName)

	var r LoadReport
	var mismatches []string
	plan := map[*slot]string{} // the checkpoint key each slot loads from
	used := map[string]bool{}
	for _, s := range slots {
		for _, n := range s.names {
			if _, ok := ckpt[n]; ok {
				if _, have := plan[s]; !have {
					plan[s] = n
				}
				used[n] = true // a tied alias stored too is not unexpected
			}
		}
		k, ok := plan[s]
		if !ok {
			r.Missing = append(r.Missing, s.names[0])
			continue
		}
		t := ckpt[k].t
		if !slices.Equal(t.Shape(), s.param.Shape()) {
			if !ignoreMismatched {
				mismatches = append(mismatches, fmt.Sprintf("%s: shape %v in %s, the model (from config.json) has %v", ckpt[k].source, t.Shape(), w.File[ckpt[k].source], s.param.Shape()))
				continue
			}
			r.Mismatched = append(r.Mismatched, Mismatch{Name: k, Checkpoint: t.Shape(), ModelShape: s.param.Shape()})
			delete(plan, s)
		}
	}
	if len(mismatches) > 0 {
		return LoadReport{}, fmt.Errorf("checkpoint tensors do not fit the model: %s (a config.json that does not match the weights? Options.IgnoreMismatchedSizes re-initialises them instead)", strings.Join(mismatches, "; "))
	}
	for k, c := range ckpt {
		if !used[k] && !c.ignored {
			r.Unexpected = append(r.Unexpected, k)
		}
	}
	tensors.NoGrad(func() {
		for s, k := range plan {
			v := ckpt[k].t
			if v.DType() != s.param.DType() {
				v = v.AsType(s.param.DType())
			}
			if v.Device() != s.param.Device() {
				v = v.To(s.param.Device())
			}
			s.param.CopyFrom(v)
		}
	})
	slices.Sort(r.Missing)
	slices.Sort(r.Unexpected)
	slices.SortFunc(r.Mismatched, func(a, b Mismatch) int { return strings.Compare(a.Name, b.Name) })
	return r, nil
}

// ckptTensor is a checkpoint tensor under the model's name for it, with its name in the file.
type ckptTensor struct {
	t       *tensors.Tensor
	source  string
	ignored bool // one of the family's non-weight keys: never reported
}

// renameCheckpoint maps the checkpoint's names onto the model's (see loadWeights).
func renameCheckpoint(w *snapshot.Weights, f *Family, model map[string]*slot) map[string]ckptTensor {
	prefix := f.BaseModelPrefix + "."
	hasPrefix := func(names []string) bool {
		return f.BaseModelPrefix != "" && slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, prefix) })
	}
	modelNames := slices.Collect(maps.Keys(model))
	ckptNames := slices.Sorted(maps.Keys(w.Tensors))
	add := hasPrefix(modelNames) && !hasPrefix(ckptNames)
	strip := !hasPrefix(modelNames) && hasPrefix(ckptNames)
	out := make(map[string]ckptTensor, len(ckptNames))
	for _, src := range ckptNames {
		k := src
		switch {
		case add && model[prefix+k] != nil:
			k = prefix + k
		case strip:
			k = strings.TrimPrefix(k, prefix)
		}
		for old, repl := range map[string]string{".gamma": ".weight", ".beta": ".bias"} {
			if strings.HasSuffix(k, old) && model[k] == nil && model[strings.TrimSuffix(k, old)+repl] != nil {
				k = strings.TrimSuffix(k, old) + repl
			}
		}
		c := ckptTensor{t: w.Tensors[src], source: src}
		for _, suffix := range f.IgnoreOnLoad {
			if (k == suffix || strings.HasSuffix(k, "."+suffix)) && model[k] == nil {
				c.ignored = true
			}
		}
		out[k] = c
	}
	return out
}
