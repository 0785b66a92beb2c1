package optim

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"slices"
)

// legacyState is the gob-encoded state dict of layout version 1 (before parameter groups), still
// read so that checkpoints written then load.
type legacyState struct {
	Version int
	Kind    string
	Hyper   map[string]float64
	Shapes  [][]int
	Steps   []int64
	Buffers []map[string][]float32
	Decays  []float64
}

// decodeLegacyState reads a version 1 state into the form decodeState returns.
func decodeLegacyState(b []byte, kind string, g *groups) (*loadedState, error) {
	var st legacyState
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&st); err != nil {
		return nil, fmt.Errorf("optim: load %s state: not an optimizer state dict: %w", kind, err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("optim: load %s state: "+format, append([]any{kind}, args...)...)
	}
	switch {
	case st.Version != 1:
		return nil, fail("gob layout version %d; this build reads version 1", st.Version)
	case st.Kind != kind:
		return nil, fail("the state was saved by a%s %s optimizer", article(st.Kind), st.Kind)
	case len(g.sizes) != 1:
		return nil, fail("saved with 1 parameter group, this optimizer has %d", len(g.sizes))
	case len(st.Shapes) != len(g.params) || len(st.Steps) != len(g.params) || len(st.Buffers) != len(g.params):
		return nil, fail("saved for %d parameters, this optimizer has %d", len(st.Shapes), len(g.params))
	}
	for i, p := range g.params {
		if !slices.Equal(st.Shapes[i], p.Shape()) {
			return nil, fail("parameter %d has shape %v, the state was saved for shape %v", i, p.Shape(), st.Shapes[i])
		}
	}
	h := st.Hyper
	gs := groupState{LR: ptr(h["lr"]), WeightDecay: ptr(h["weight_decay"])}
	if kind == "SGD" {
		gs.Momentum, gs.Dampening, gs.Nesterov = ptr(h["momentum"]), ptr(h["dampening"]), ptr(h["nesterov"] != 0)
	} else {
		gs.Betas, gs.Eps = []float64{h["beta1"], h["beta2"]}, ptr(h["eps"])
	}
	ld := &loadedState{groups: []groupState{gs}, steps: st.Steps, bufs: make([]map[string]json.RawMessage, len(g.params)),
		decay: make([]float64, len(g.params))}
	for i := range ld.decay {
		ld.decay[i] = h["weight_decay"]
	}
	if len(st.Decays) == len(g.params) {
		copy(ld.decay, st.Decays)
	}
	for i, bufs := range st.Buffers {
		if len(bufs) == 0 {
			continue
		}
		ld.bufs[i] = map[string]json.RawMessage{}
		for name, v := range bufs {
			if len(v) != g.params[i].Numel() {
				return nil, fail("parameter %d: %s has %d values, want %d", i, name, len(v), g.params[i].Numel())
			}
			ld.bufs[i][name] = encodeTensor(v, g.params[i].Shape())
		}
	}
	return ld, nil
}
