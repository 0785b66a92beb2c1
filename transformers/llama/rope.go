package llama

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

// ropeKinds are the rope_type values goaccel computes; transformers also has "dynamic",
// "yarn", "longrope" and "proportional", which are refused by name.
var ropeKinds = []string{"default", "linear", "llama3"}

// rope is the rotary embedding a configuration asks for, standardised as transformers'
// standardize_rope_params does.
type rope struct {
	kind                    string
	theta                   float64
	factor, lowFreq, hiFreq float64 // linear and llama3
	origMax                 int     // llama3: original_max_position_embeddings
}

// rope reads the rotary embedding's settings: rope_scaling (older files) or rope_parameters,
// rope_theta inside it or beside it (default 10000), rope_type (or type; default "default").
func (c *Config) rope() (rope, error) {
	key, p := "rope_parameters", c.RopeParameters
	if len(c.RopeScaling) > 0 {
		key, p = "rope_scaling", c.RopeScaling
	}
	num := func(name string) (float64, bool, error) {
		v, ok := p[name]
		if !ok || v == nil {
			return 0, false, nil
		}
		f, isNum := v.(float64)
		if !isNum {
			return 0, false, fmt.Errorf("config key %s.%s: %v is not a number", key, name, v)
		}
		return f, true, nil
	}
	r := rope{kind: "default", theta: 10000}
	if c.RopeTheta != nil {
		r.theta = *c.RopeTheta
	}
	if t, ok, err := num("rope_theta"); err != nil {
		return r, err
	} else if ok {
		r.theta = t
	}
	for _, name := range []string{"type", "rope_type"} {
		if s, ok := p[name].(string); ok {
			r.kind = s
		}
	}
	if f, ok, err := num("partial_rotary_factor"); err != nil || (ok && f != 1) {
		if err != nil {
			return r, err
		}
		return r, fmt.Errorf("config key %s.partial_rotary_factor: %v is not supported for Llama (rotary embeddings on every feature only)", key, f)
	}
	if !(r.theta > 0) {
		return r, fmt.Errorf("config key %s.rope_theta: must be positive, have %v", key, r.theta)
	}
	need := func(name string) (float64, error) {
		f, ok, err := num(name)
		if err == nil && !ok {
			err = fmt.Errorf("config key %s: rope_type %q needs %s", key, r.kind, name)
		}
		return f, err
	}
	var err error
	switch r.kind {
	case "default":
	case "linear":
		if r.factor, err = need("factor"); err == nil && !(r.factor > 0) {
			err = fmt.Errorf("config key %s.factor: must be positive, have %v", key, r.factor)
		}
	case "llama3":
		if r.factor, err = need("factor"); err != nil {
			return r, err
		}
		if r.lowFreq, err = need("low_freq_factor"); err != nil {
			return r, err
		}
		if r.hiFreq, err = need("high_freq_factor"); err != nil {
			return r, err
		}
		r.origMax = c.MaxPositionEmbeddings
		if f, ok, e := num("original_max_position_embeddings"); e != nil {
			return r, e
		} else if ok {
			r.origMax = int(f)
		}
		if !(r.factor > 0) || !(r.hiFreq > r.lowFreq) || !(r.lowFreq > 0) || r.origMax <= 0 {
			err = fmt.Errorf("config key %s: llama3 scaling needs factor > 0, high_freq_factor > low_freq_factor > 0 and original_max_position_embeddings > 0, have %v, %v, %v, %d", key, r.factor, r.hiFreq, r.lowFreq, r.origMax)
		}
	default:
		err = fmt.Errorf("config key %s: rope_type %q is not supported (supported: %v)", key, r.kind, ropeKinds)
	}
	return r, err
}

// invFreq returns the rotary embedding's inverse frequencies for heads of dim features
// (dim/2 of them), computed in float32 step by step as transformers computes them.
func (r rope) invFreq(dim int) []float32 {
	base := float32(r.theta)
	inv := make([]float32, dim/2)
	for i := range inv {
		e := float32(2*i) / float32(dim)
		inv[i] = 1 / float32(math.Pow(float64(base), float64(e)))
	}
	switch r.kind {
	case "linear":
		for i := range inv {
			inv[i] /= float32(r.factor)
		}
	case "llama3":
		// transformers' _compute_llama3_parameters: long wavelengths are slowed by factor, short
		// ones kept, the ones between interpolated.
		old := float64(r.origMax)
		lowWave, highWave := old/r.lowFreq, old/r.hiFreq
		factor := float32(r.factor)
		for i, f := range inv {
			wave := (1 / f) * float32(2*math.Pi) // scalar / tensor is reciprocal then product in torch
			scaled := f
			if float64(wave) > lowWave {
				scaled = f / factor
			}
			if !(float64(wave) < highWave) && !(float64(wave) > lowWave) {
				smooth := ((1/wave)*float32(old) - float32(r.lowFreq)) / float32(r.hiFreq-r.lowFreq)
				scaled = (1-smooth)*scaled/factor + smooth*scaled
			}
			inv[i] = scaled
		}
	}
	return inv
}

// rotary holds the cosines and sines of the rotation at each position: [B or 1, T, 1, D/2]
// (the two halves of a head turn by the same angles, so half is stored).
type rotary struct {
	cos, sin *tensors.Tensor
}

// newRotary computes the rotation of positions pos [B or 1, T] (int64) for the inverse
// frequencies inv, in float32 (cos and sin of float32(position)·inv_freq), on pos's device.
func newRotary(pos *tensors.Tensor, inv []float32) rotary {
	p := pos.Int64s()
	half := len(inv)
	cs, sn := make([]float32, len(p)*half), make([]float32, len(p)*half)
	for i, q := range p {
		for j, f := range inv {
			a := float64(float32(q) * f)
			cs[i*half+j], sn[i*half+j] = float32(math.Cos(a)), float32(math.Sin(a))
		}
	}
	shape := []int{pos.Size(0), pos.Size(1), 1, half}
	return rotary{cos: tensors.New(cs, shape...).To(pos.Device()), sin: tensors.New(sn, shape...).To(pos.Device())}
}

// apply rotates x [B, T, H, D] (transformers' apply_rotary_pos_emb: x·cos + rotate_half(x)·sin,
// written per half: the first half x₁·cos − x₂·sin, the second x₂·cos + x₁·sin).
func (r rotary) apply(x *tensors.Tensor) *tensors.Tensor {
	d := x.Size(3)
	x1, x2 := x.Slice(3, 0, d/2), x.Slice(3, d/2, d)
	mul := func(a, b *tensors.Tensor) *tensors.Tensor { return a.Mul(b) }
	a, b := mul(x1, r.cos), mul(x2, r.sin)
	lo := a.Sub(b)
	a.Release()
	b.Release()
	a, b = mul(x2, r.cos), mul(x1, r.sin)
	hi := a.Add(b)
	a.Release()
	b.Release()
	out := tensors.Cat([]*tensors.Tensor{lo, hi}, 3)
	lo.Release()
	hi.Release()
	return out
}

// release hands the tables back.
func (r rotary) release() {
	r.cos.Release()
	r.sin.Release()
}
