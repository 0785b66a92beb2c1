package modeling

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// normal returns a parameter of shape drawn N(0, std²) from the process-wide generator, in dt.
func normal(std float64, dt tensors.DType, shape ...int) *tensors.Tensor {
	var out *tensors.Tensor
	tensors.NoGrad(func() {
		r := tensors.Randn(shape...)
		out = r.MulScalar(std)
		r.Release()
		if dt != tensors.Float32 {
			out = out.AsType(dt)
		}
	})
	return out.SetRequiresGrad(true)
}

func filled(v float64, dt tensors.DType, n int) *tensors.Tensor {
	t := tensors.Full(v, n)
	if dt != tensors.Float32 {
		t = t.AsType(dt)
	}
	return t.SetRequiresGrad(true)
}

// NewLinear is a Linear of in → out features with weight N(0, std²) and a zero bias.
func NewLinear(in, out int, std float64, dt tensors.DType) *nn.Linear {
	return &nn.Linear{Weight: normal(std, dt, out, in), Bias: filled(0, dt, out)}
}

// NewEmbedding is an Embedding of n rows of dim with N(0, std²) weights and, when padIdx is in
// range, a zero padding row (nn.Embedding's padding_idx as transformers initialises it).
func NewEmbedding(n, dim int, std float64, padIdx int, dt tensors.DType) *nn.Embedding {
	r := tensors.Randn(n, dim)
	v := r.MulScalar(std).Float32s()
	r.Release()
	if padIdx >= 0 && padIdx < n {
		clear(v[padIdx*dim : (padIdx+1)*dim])
	}
	w := tensors.New(v, n, dim)
	if dt != tensors.Float32 {
		w = w.AsType(dt)
	}
	return &nn.Embedding{Weight: w.SetRequiresGrad(true)}
}

// NewLayerNorm is a LayerNorm over n features with weight 1, bias 0 and eps.
func NewLayerNorm(n int, eps float64, dt tensors.DType) *nn.LayerNorm {
	return &nn.LayerNorm{Shape: []int{n}, Eps: eps, Weight: filled(1, dt, n), Bias: filled(0, dt, n)}
}

// activations are the functions of transformers' ACT2FN names that goaccel computes; the tanh
// approximations of GELU (gelu_new, gelu_fast, gelu_accurate, …) are one formula.
var activations = map[string]func(*tensors.Tensor) *tensors.Tensor{
	"gelu":              (*tensors.Tensor).GELU,
	"gelu_python":       (*tensors.Tensor).GELU,
	"gelu_new":          (*tensors.Tensor).GELUTanh,
	"gelu_pytorch_tanh": (*tensors.Tensor).GELUTanh,
	"gelu_python_tanh":  (*tensors.Tensor).GELUTanh,
	"gelu_fast":         (*tensors.Tensor).GELUTanh,
	"gelu_accurate":     (*tensors.Tensor).GELUTanh,
	"gelu_10": func(x *tensors.Tensor) *tensors.Tensor {
		return Apply(x.GELU(), func(y *tensors.Tensor) *tensors.Tensor { return y.Clamp(-10, 10) })
	},
	"quick_gelu": func(x *tensors.Tensor) *tensors.Tensor {
		return Apply(Apply(x.MulScalar(1.702), (*tensors.Tensor).Sigmoid), x.Mul)
	},
	"relu": (*tensors.Tensor).ReLU,
	"relu2": func(x *tensors.Tensor) *tensors.Tensor {
		return Apply(x.ReLU(), func(y *tensors.Tensor) *tensors.Tensor { return y.Mul(y) })
	},
	"relu6": func(x *tensors.Tensor) *tensors.Tensor { return x.Clamp(0, 6) },
	"leaky_relu": func(x *tensors.Tensor) *tensors.Tensor { // torch's default slope, 0.01
		neg := Apply(Apply(x.Neg(), (*tensors.Tensor).ReLU), func(y *tensors.Tensor) *tensors.Tensor { return y.MulScalar(0.01) })
		return Apply(x.ReLU(), func(y *tensors.Tensor) *tensors.Tensor { return Apply(neg, y.Sub) })
	},
	"silu":    (*tensors.Tensor).SiLU,
	"swish":   (*tensors.Tensor).SiLU,
	"sigmoid": (*tensors.Tensor).Sigmoid,
	"tanh":    (*tensors.Tensor).Tanh,
	"linear":  func(x *tensors.Tensor) *tensors.Tensor { return x },
	"hardswish": func(x *tensors.Tensor) *tensors.Tensor { // x·relu6(x+3)/6
		g := Apply(Apply(x.AddScalar(3), func(y *tensors.Tensor) *tensors.Tensor { return y.Clamp(0, 6) }), func(y *tensors.Tensor) *tensors.Tensor { return y.DivScalar(6) })
		return Apply(g, x.Mul)
	},
	"mish": func(x *tensors.Tensor) *tensors.Tensor { // x·tanh(softplus(x))
		sp := Apply(Apply(x.Exp(), func(y *tensors.Tensor) *tensors.Tensor { return y.AddScalar(1) }), (*tensors.Tensor).Log)
		return Apply(Apply(sp, (*tensors.Tensor).Tanh), x.Mul)
	},
}

// Activation returns the function of a config's activation (hidden_act, activation_function:
// transformers' ACT2FN names); a name transformers knows that goaccel does not compute, or one
// it does not know, is an error naming the key, the name and the supported ones.
func Activation(key, name string) (func(*tensors.Tensor) *tensors.Tensor, error) {
	if f, ok := activations[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("config key %s: activation %q is not supported (supported: %s)", key, name, strings.Join(slices.Sorted(maps.Keys(activations)), ", "))
}

// Dropout applies dropout with probability p in training mode and returns x otherwise,
// releasing x when it made a new tensor.
func Dropout(x *tensors.Tensor, p float64, training bool) *tensors.Tensor {
	if !training || p == 0 {
		return x
	}
	y := tensors.Dropout(x, p, true)
	x.Release()
	return y
}

// Positions returns the position ids 0 … t-1 as an int64 [1, t] tensor on d.
func Positions(t int, d tensors.Device) *tensors.Tensor {
	pos := make([]int64, t)
	for i := range pos {
		pos[i] = int64(i)
	}
	return tensors.FromInt64(pos, 1, t).To(d)
}

// Apply runs fn, then releases x: the step of a forward pass that no longer needs its input.
func Apply(x *tensors.Tensor, fn func(*tensors.Tensor) *tensors.Tensor) *tensors.Tensor {
	y := fn(x)
	if y != x {
		x.Release()
	}
	return y
}

// Prefix returns ps with "prefix." in front of each name.
func Prefix(prefix string, ps []nn.NamedParameter) []nn.NamedParameter {
	out := make([]nn.NamedParameter, len(ps))
	for i, p := range ps {
		out[i] = nn.NamedParameter{Name: prefix + "." + p.Name, Param: p.Param}
	}
	return out
}

// CheckPositive returns an error naming each key whose value is not positive: the shared check
// of the sizes in a family's Validate. Keys and values alternate: "hidden_size", 384, ….
func CheckPositive(keysAndValues ...any) error {
	var errs []error
	for i := 0; i+1 < len(keysAndValues); i += 2 {
		k, _ := keysAndValues[i].(string)
		if v, _ := keysAndValues[i+1].(int); v <= 0 {
			errs = append(errs, fmt.Errorf("config key %s: must be positive, have %v", k, keysAndValues[i+1]))
		}
	}
	return errors.Join(errs...)
}

// SelfAttention is multi-head self-attention over x [B, T, C] from separate query, key and value
// projections (transformers' three Linears, under their own names): their weights are
// concatenated (a differentiable copy of a few hundred kilobytes) so that one matrix product
// projects all three, and the fused tensors.MultiHeadAttention reads the heads in place. The
// result is [B, T, C] with the heads merged.
func SelfAttention(x *tensors.Tensor, q, k, v *nn.Linear, heads int, opts tensors.AttentionOptions) *tensors.Tensor {
	w := tensors.Cat([]*tensors.Tensor{q.Weight, k.Weight, v.Weight}, 0)
	var b *tensors.Tensor
	if q.Bias != nil && k.Bias != nil && v.Bias != nil {
		b = tensors.Cat([]*tensors.Tensor{q.Bias, k.Bias, v.Bias}, 0)
	}
	qkv := tensors.Linear(x, w, b)
	w.Release()
	if b != nil {
		b.Release()
	}
	y := tensors.MultiHeadAttention(qkv, heads, opts)
	qkv.Release()
	return y
}
