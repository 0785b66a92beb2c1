package optim

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// state is the serialised form of an optimizer (gob-encoded): its kind, hyper-parameters, and per
// parameter the step count and named buffers, as PyTorch's optimizer state_dict holds them.
type state struct {
	Version int
	Kind    string
	Hyper   map[string]float64
	Shapes  [][]int
	Steps   []int64
	Buffers []map[string][]float32
	Decays  []float64 // per-parameter weight decay (absent in states that never had it)
}

const stateVersion = 1

func newState(kind string, ps params) *state {
	st := &state{Version: stateVersion, Kind: kind, Shapes: make([][]int, len(ps)),
		Steps: make([]int64, len(ps)), Buffers: make([]map[string][]float32, len(ps))}
	for i, p := range ps {
		st.Shapes[i] = p.Shape()
	}
	return st
}

func (st *state) encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(st); err != nil {
		return nil, fmt.Errorf("optim: encode %s state: %w", st.Kind, err)
	}
	return buf.Bytes(), nil
}

func decodeState(b []byte, kind string, ps params) (*state, error) {
	var st state
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&st); err != nil {
		return nil, fmt.Errorf("optim: load %s state: not an optimizer state dict: %w", kind, err)
	}
	if st.Version != stateVersion {
		return nil, fmt.Errorf("optim: load %s state: version %d, this build reads version %d", kind, st.Version, stateVersion)
	}
	if st.Kind != kind {
		return nil, fmt.Errorf("optim: load %s state: the state was saved by a %s optimizer", kind, st.Kind)
	}
	if len(st.Shapes) != len(ps) || len(st.Steps) != len(ps) || len(st.Buffers) != len(ps) {
		return nil, fmt.Errorf("optim: load %s state: saved for %d parameters, this optimizer has %d", kind, len(st.Shapes), len(ps))
	}
	for i, p := range ps {
		if !sameShape(st.Shapes[i], p.Shape()) {
			return nil, fmt.Errorf("optim: load %s state: parameter %d has shape %v, the state was saved for shape %v", kind, i, p.Shape(), st.Shapes[i])
		}
	}
	return &st, nil
}

// decays returns the per-parameter weight decays of st, or def for each parameter when st has none.
func (st *state) decays(def float64) []float64 {
	if len(st.Decays) == len(st.Shapes) {
		return append([]float64(nil), st.Decays...)
	}
	out := make([]float64, len(st.Shapes))
	for i := range out {
		out[i] = def
	}
	return out
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func copyBuf(dst, src []float32, i int, name string) error {
	if len(src) != len(dst) {
		return fmt.Errorf("optim: load state: parameter %d: %s has %d values, want %d", i, name, len(src), len(dst))
	}
	copy(dst, src)
	return nil
}
