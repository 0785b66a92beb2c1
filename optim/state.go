package optim

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/goaccel/goaccel/tensors"
)

// stateDict is an optimizer's state dict as JSON, in the layout of PyTorch's
// optimizer.state_dict(): "state" maps a parameter's index (counting across the groups in order)
// to its step count and buffers, "param_groups" lists each group's hyper-parameters and the
// indices of its parameters. Tensors are {"dtype": "F32", "shape": [...], "data": base64 of the
// little-endian values} (exact, and NaN-safe unlike JSON numbers); PyTorch's 0-d "step" tensor is a
// number. goaccel's additions sit under "goaccel", which PyTorch's load_state_dict ignores.
type stateDict struct {
	State       map[string]map[string]json.RawMessage `json:"state"`
	ParamGroups []groupState                          `json:"param_groups"`
	Goaccel     *stateExtra                           `json:"goaccel,omitempty"`
}

// groupState is one entry of param_groups. Pointers tell a key that is absent from one that is
// zero; the keys PyTorch writes but goaccel has no use for (foreach, capturable, …) are read and
// ignored unless they ask for behaviour goaccel does not have.
type groupState struct {
	Params      []int     `json:"params"`
	LR          *float64  `json:"lr"`
	WeightDecay *float64  `json:"weight_decay"`
	Momentum    *float64  `json:"momentum,omitempty"`
	Dampening   *float64  `json:"dampening,omitempty"`
	Nesterov    *bool     `json:"nesterov,omitempty"`
	Betas       []float64 `json:"betas,omitempty"`
	Rho         *float64  `json:"rho,omitempty"`
	Alpha       *float64  `json:"alpha,omitempty"`
	Centered    *bool     `json:"centered,omitempty"`
	LRDecay     *float64  `json:"lr_decay,omitempty"`
	InitialAcc  *float64  `json:"initial_accumulator_value,omitempty"`
	Eps         *float64  `json:"eps,omitempty"`
	Amsgrad     *bool     `json:"amsgrad,omitempty"`
	Maximize    *bool     `json:"maximize,omitempty"`
	Capturable  *bool     `json:"capturable,omitempty"`
	Foreach     *bool     `json:"foreach"`
}

// stateExtra holds what PyTorch's layout lacks: the optimizer kind and every parameter's shape
// (so a state is refused for another model even where no buffer exists yet), and per-parameter
// weight decays when SetWeightDecay made them differ from their group's.
type stateExtra struct {
	Version      int       `json:"version"`
	Kind         string    `json:"kind"`
	Shapes       [][]int   `json:"shapes"`
	WeightDecays []float64 `json:"weight_decays,omitempty"`
}

// stateVersion is the version of the JSON layout (version 1 was gob-encoded; see state_legacy.go).
const stateVersion = 2

// tensorState is a float32 tensor in a state dict.
type tensorState struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []byte `json:"data"`
}

func encodeTensor(vals []float32, shape []int) json.RawMessage {
	data := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	b, _ := json.Marshal(tensorState{DType: "F32", Shape: shape, Data: data}) // cannot fail
	return b
}

// decodeTensor reads a tensor into dst, which must have the given shape.
func decodeTensor(raw json.RawMessage, dst []float32, shape []int) error {
	var t tensorState
	if err := json.Unmarshal(raw, &t); err != nil {
		return fmt.Errorf("not a tensor (want {\"dtype\": \"F32\", \"shape\": [...], \"data\": base64}): %w", err)
	}
	if t.DType != "F32" {
		return fmt.Errorf("dtype %q; optimizer state is float32 (\"F32\")", t.DType)
	}
	if !slices.Equal(t.Shape, shape) {
		return fmt.Errorf("shape %v; the parameter has shape %v", t.Shape, shape)
	}
	if len(t.Data) != 4*len(dst) {
		return fmt.Errorf("%d bytes of data for %d float32 values", len(t.Data), len(dst))
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.Data[4*i:]))
	}
	return nil
}

// newStateDict starts the state dict of an optimizer of kind over g: one param_groups entry per
// group (hyper-parameters filled in by the caller), no per-parameter state yet.
func newStateDict(kind string, g *groups) *stateDict {
	sd := &stateDict{State: map[string]map[string]json.RawMessage{},
		Goaccel: &stateExtra{Version: stateVersion, Kind: kind, Shapes: make([][]int, len(g.params))}}
	idx := 0
	for gi, n := range g.sizes {
		gs := groupState{LR: ptr(g.lrs[gi]), WeightDecay: ptr(g.decays[gi]), Maximize: ptr(false), Params: make([]int, n)}
		for k := range gs.Params {
			gs.Params[k] = idx
			idx++
		}
		sd.ParamGroups = append(sd.ParamGroups, gs)
	}
	overridden := false
	for i, p := range g.params {
		sd.Goaccel.Shapes[i] = p.Shape()
		overridden = overridden || g.decay[i] != g.decays[g.of[i]]
	}
	if overridden {
		sd.Goaccel.WeightDecays = append([]float64(nil), g.decay...)
	}
	return sd
}

// set records parameter i's state: its step count (when step ≥ 0) and named buffers.
func (sd *stateDict) set(i int, step int64, shape []int, bufs map[string][]float32) {
	st := map[string]json.RawMessage{}
	if step >= 0 {
		st["step"] = json.RawMessage(strconv.FormatInt(step, 10))
	}
	for name, v := range bufs {
		st[name] = encodeTensor(v, shape)
	}
	sd.State[strconv.Itoa(i)] = st
}

func (sd *stateDict) encode() ([]byte, error) {
	b, err := json.Marshal(sd)
	if err != nil {
		return nil, fmt.Errorf("optim: encode %s state: %w", sd.Goaccel.Kind, err)
	}
	return b, nil
}

// loadedState is a state dict checked against an optimizer: hyper-parameters per group, and per
// parameter (in the optimizer's order) the step count and raw buffers.
type loadedState struct {
	groups []groupState
	decay  []float64 // per-parameter weight decay
	steps  []int64
	bufs   []map[string]json.RawMessage // nil where the parameter has no state
}

// decodeState parses b (this package's JSON layout, a PyTorch state dict in that layout, or the
// gob layout of version 1) and checks it against an optimizer of kind over g: the kind, the number
// of groups and of parameters in each, and the shapes.
func decodeState(b []byte, kind string, g *groups) (*loadedState, error) {
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return decodeLegacyState(b, kind, g)
	}
	var sd stateDict
	if err := json.Unmarshal(b, &sd); err != nil {
		return nil, fmt.Errorf("optim: load %s state: not an optimizer state dict: %w", kind, err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("optim: load %s state: "+format, append([]any{kind}, args...)...)
	}
	if sd.ParamGroups == nil {
		return nil, fail("not an optimizer state dict (no \"param_groups\")")
	}
	if x := sd.Goaccel; x != nil && x.Version > stateVersion {
		return nil, fail("saved in layout version %d; this build reads versions up to %d", x.Version, stateVersion)
	}
	if saved, ok := sameKind(&sd, kind); !ok {
		return nil, fail("the state was saved by a%s %s optimizer", article(saved), saved)
	}
	if len(sd.ParamGroups) != len(g.sizes) {
		return nil, fail("saved with %d parameter groups, this optimizer has %d", len(sd.ParamGroups), len(g.sizes))
	}
	ld := &loadedState{groups: sd.ParamGroups, steps: make([]int64, len(g.params)), bufs: make([]map[string]json.RawMessage, len(g.params))}
	pos := map[int]int{} // saved parameter index → position in this optimizer
	total := 0
	for gi, gs := range sd.ParamGroups {
		if len(gs.Params) != g.sizes[gi] {
			return nil, fail("group %d was saved with %d parameters, this optimizer's has %d", gi, len(gs.Params), g.sizes[gi])
		}
		if gs.LR == nil || gs.WeightDecay == nil {
			return nil, fail("group %d lacks \"lr\" or \"weight_decay\"", gi)
		}
		if err := checkGroup(gs); err != nil {
			return nil, fail("group %d: %v", gi, err)
		}
		for _, id := range gs.Params {
			if _, dup := pos[id]; dup {
				return nil, fail("parameter index %d appears twice in param_groups", id)
			}
			pos[id] = total
			total++
		}
	}
	if total != len(g.params) {
		return nil, fail("saved for %d parameters, this optimizer has %d", total, len(g.params))
	}
	if x := sd.Goaccel; x != nil && x.Shapes != nil {
		if len(x.Shapes) != len(g.params) {
			return nil, fail("saved for %d parameters, this optimizer has %d", len(x.Shapes), len(g.params))
		}
		for i, p := range g.params {
			if !slices.Equal(x.Shapes[i], p.Shape()) {
				return nil, fail("parameter %d has shape %v, the state was saved for shape %v", i, p.Shape(), x.Shapes[i])
			}
		}
	}
	ld.decay = make([]float64, len(g.params))
	for i := range ld.decay {
		ld.decay[i] = *sd.ParamGroups[g.of[i]].WeightDecay
	}
	if x := sd.Goaccel; x != nil && len(x.WeightDecays) == len(g.params) {
		for i, wd := range x.WeightDecays {
			if !(wd >= 0) {
				return nil, fail("parameter %d: invalid weight decay %v (must be ≥ 0)", i, wd)
			}
		}
		copy(ld.decay, x.WeightDecays)
	}
	for key, st := range sd.State {
		id, err := strconv.Atoi(key)
		i, ok := pos[id]
		if err != nil || !ok {
			return nil, fail("state for parameter %q, which no group lists", key)
		}
		ld.bufs[i] = st
		if raw, ok := st["step"]; ok {
			if ld.steps[i], err = decodeStep(raw); err != nil {
				return nil, fail("parameter %d: step: %v", i, err)
			}
		}
	}
	return ld, nil
}

// sameKind reports whether sd can be loaded into an optimizer of kind, and the kind sd was saved
// by. goaccel records its kind; a state dict from PyTorch only shows, by its keys, whether it is
// SGD or of the Adam family (Adam and AdamW keep the same state).
func sameKind(sd *stateDict, kind string) (saved string, ok bool) {
	if sd.Goaccel != nil && sd.Goaccel.Kind != "" {
		return sd.Goaccel.Kind, sd.Goaccel.Kind == kind
	}
	for _, gs := range sd.ParamGroups {
		switch { // RMSprop's groups have a momentum too: the specific keys first
		case gs.Rho != nil:
			return "Adadelta", kind == "Adadelta"
		case gs.Alpha != nil:
			return "RMSprop", kind == "RMSprop"
		case gs.LRDecay != nil || gs.InitialAcc != nil:
			return "Adagrad", kind == "Adagrad"
		case gs.Momentum != nil:
			return "SGD", kind == "SGD"
		case gs.Betas != nil:
			return "Adam", kind == "Adam" || kind == "AdamW"
		}
	}
	return "", true
}

func article(kind string) string {
	switch kind {
	case "SGD", "Adam", "AdamW", "Adadelta", "RMSprop", "Adagrad":
		return "n"
	}
	return ""
}

// checkGroup refuses hyper-parameters out of range and options goaccel does not implement.
func checkGroup(gs groupState) error {
	bad := func(v *float64, hi float64) bool { return v != nil && !(*v >= 0 && *v < hi) }
	switch {
	case bad(gs.LR, math.Inf(1)):
		return fmt.Errorf("invalid learning rate %v (must be ≥ 0)", *gs.LR)
	case bad(gs.WeightDecay, math.Inf(1)):
		return fmt.Errorf("invalid weight decay %v (must be ≥ 0)", *gs.WeightDecay)
	case bad(gs.Momentum, math.Inf(1)):
		return fmt.Errorf("invalid momentum %v (must be ≥ 0)", *gs.Momentum)
	case bad(gs.Eps, math.Inf(1)):
		return fmt.Errorf("invalid eps %v (must be ≥ 0)", *gs.Eps)
	case gs.Rho != nil && !(*gs.Rho >= 0 && *gs.Rho <= 1):
		return fmt.Errorf("invalid rho %v (must be in [0, 1])", *gs.Rho)
	case bad(gs.Alpha, math.Inf(1)):
		return fmt.Errorf("invalid alpha %v (must be ≥ 0)", *gs.Alpha)
	case bad(gs.LRDecay, math.Inf(1)):
		return fmt.Errorf("invalid lr_decay %v (must be ≥ 0)", *gs.LRDecay)
	case bad(gs.InitialAcc, math.Inf(1)):
		return fmt.Errorf("invalid initial_accumulator_value %v (must be ≥ 0)", *gs.InitialAcc)
	case gs.Betas != nil && (len(gs.Betas) != 2 || bad(&gs.Betas[0], 1) || bad(&gs.Betas[1], 1)):
		return fmt.Errorf("invalid betas %v (want two values in [0, 1))", gs.Betas)
	case gs.Amsgrad != nil && *gs.Amsgrad:
		return fmt.Errorf("amsgrad is on; goaccel's Adam has no AMSGrad variant")
	case gs.Maximize != nil && *gs.Maximize:
		return fmt.Errorf("maximize is on; goaccel's optimizers minimise")
	case gs.Nesterov != nil && *gs.Nesterov && (gs.Momentum == nil || *gs.Momentum <= 0 || (gs.Dampening != nil && *gs.Dampening != 0)):
		return fmt.Errorf("nesterov is on, which needs momentum > 0 and dampening 0")
	}
	return nil
}

// decodeStep reads a step count: a number, or a 0-d tensor as a state dict written from PyTorch
// with its tensors encoded may hold.
func decodeStep(raw json.RawMessage) (int64, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		if f < 0 || f != math.Trunc(f) {
			return 0, fmt.Errorf("%v is not a step count", f)
		}
		return int64(f), nil
	}
	var v [1]float32
	if err := decodeTensor(raw, v[:], []int{}); err != nil {
		return 0, err
	}
	return decodeStep(json.RawMessage(strconv.FormatFloat(float64(v[0]), 'f', -1, 64)))
}

// buffer decodes parameter i's buffer name into a fresh slice; ok is false when it is absent or
// null (PyTorch's momentum_buffer None).
func (ld *loadedState) buffer(i int, name string, shape []int, n int) (vals []float32, ok bool, err error) {
	raw, have := ld.bufs[i][name]
	if !have || string(raw) == "null" {
		return nil, false, nil
	}
	vals = make([]float32, n)
	if err := decodeTensor(raw, vals, shape); err != nil {
		return nil, false, fmt.Errorf("optim: load state: parameter %d: %s: %w", i, name, err)
	}
	return vals, true, nil
}

// apply sets g's learning rates, group weight decays and per-parameter decays from ld.
func (ld *loadedState) apply(g *groups) {
	for gi, gs := range ld.groups {
		g.lrs[gi] = *gs.LR
		g.decays[gi] = *gs.WeightDecay
	}
	copy(g.decay, ld.decay)
}

func ptr[T any](v T) *T { return &v }

// derefOr returns *p, or def when p is nil (a key absent from a state dict).
func derefOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// buffers decodes parameter i's buffers names as state tensors on p's device: all of them when
// the parameter has a step (nil, nil when it has none), an error when some are missing.
func (ld *loadedState) buffers(i int, kind string, p *tensors.Tensor, names ...string) ([]*tensors.Tensor, error) {
	out := make([]*tensors.Tensor, len(names))
	have := 0
	for k, name := range names {
		vals, ok, err := ld.buffer(i, name, p.Shape(), p.Numel())
		if err != nil {
			return nil, err
		}
		if ok {
			out[k] = stateTensor(p, vals)
			have++
		}
	}
	switch {
	case have == 0 && ld.steps[i] == 0:
		return nil, nil
	case have != len(names) || ld.steps[i] == 0:
		return nil, fmt.Errorf("optim: load %s state: parameter %d has step %d but not all of %v", kind, i, ld.steps[i], names)
	}
	return out, nil
}
