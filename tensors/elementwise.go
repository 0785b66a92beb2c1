package tensors

import "github.com/goaccel/goaccel/tensors/backend"

// binary runs a broadcast kernel without autograd.
func binary(op backend.BinaryOp, name string, a, b *Tensor) *Tensor {
	pa, pb := promote(name, a, b)
	shape := broadcastShapes(name, pa.shape, pb.shape)
	out := empty(pa.dtype, pa.dev, shape...)
	pa.be().Binary(op, out.buf(), pa.bcast(shape), pb.bcast(shape), shape)
	releaseIfNot(pa, a)
	releaseIfNot(pb, b)
	return out
}

// releaseIfNot releases the internal temporary x unless it is the caller's tensor orig.
func releaseIfNot(x, orig *Tensor) {
	if x != orig {
		x.release()
	}
}

// Add returns t + o with NumPy broadcasting.
func (t *Tensor) Add(o *Tensor) *Tensor {
	defer opSpan("Add", t, o).End()
	if out := deferBinary(backend.Add, t, o); out != nil {
		return out
	}
	out := binary(backend.Add, "Add", t, o)
	record(out, "Add", []*Tensor{t, o}, func(g *Tensor) []*Tensor {
		return []*Tensor{sumTo(g, t.shape), sumTo(g, o.shape)}
	})
	return out
}

// Sub returns t - o with NumPy broadcasting.
func (t *Tensor) Sub(o *Tensor) *Tensor {
	defer opSpan("Sub", t, o).End()
	if out := deferBinary(backend.Sub, t, o); out != nil {
		return out
	}
	out := binary(backend.Sub, "Sub", t, o)
	record(out, "Sub", []*Tensor{t, o}, func(g *Tensor) []*Tensor {
		var gb *Tensor
		if o.requiresGrad {
			gb = sumToOwned(g.Neg(), o.shape)
		}
		return []*Tensor{sumTo(g, t.shape), gb}
	})
	return out
}

// Mul returns t * o elementwise with NumPy broadcasting.
func (t *Tensor) Mul(o *Tensor) *Tensor {
	defer opSpan("Mul", t, o).End()
	if out := deferBinary(backend.Mul, t, o); out != nil {
		return out
	}
	out := binary(backend.Mul, "Mul", t, o)
	record(out, "Mul", []*Tensor{t, o}, func(g *Tensor) []*Tensor {
		var ga, gb *Tensor
		if t.requiresGrad {
			ga = sumToOwned(binary(backend.Mul, "Mul", g, o), t.shape)
		}
		if o.requiresGrad {
			gb = sumToOwned(binary(backend.Mul, "Mul", g, t), o.shape)
		}
		return []*Tensor{ga, gb}
	})
	return out
}

// Div returns t / o elementwise with NumPy broadcasting (true division).
func (t *Tensor) Div(o *Tensor) *Tensor {
	defer opSpan("Div", t, o).End()
	if t.dtype == Int64 && o.dtype == Int64 {
		t, o = t.AsType(Float32), o.AsType(Float32)
	}
	if out := deferBinary(backend.Div, t, o); out != nil {
		return out
	}
	out := binary(backend.Div, "Div", t, o)
	record(out, "Div", []*Tensor{t, o}, func(g *Tensor) []*Tensor {
		var ga, gb *Tensor
		gq := binary(backend.Div, "Div", g, o)
		if o.requiresGrad {
			m := binary(backend.Mul, "Div", gq, out)
			gb = sumToOwned(handOver(m, m.Neg()), o.shape)
		}
		if t.requiresGrad {
			ga = sumToOwned(gq, t.shape)
		} else {
			gq.release()
		}
		return []*Tensor{ga, gb}
	})
	return out
}

// unary runs an elementwise kernel and records its derivative.
func (t *Tensor) unary(op backend.UnaryOp, name string, p, q float64) *Tensor {
	defer opSpan(name, t).End()
	if out := deferUnary(op, t, p, q); out != nil {
		return out
	}
	x := t.dense()
	out := empty(x.dtype, x.dev, x.shape...)
	x.be().Unary(op, out.buf(), x.buf(), p, q)
	record(out, name, []*Tensor{t}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		dx := empty(gc.dtype, gc.dev, gc.shape...)
		x.be().UnaryGrad(op, dx.buf(), gc.buf(), x.buf(), out.buf(), p, q)
		releaseIfNot(gc, g)
		return []*Tensor{dx}
	}, x)
	releaseIfNot(x, t)
	return out
}

// AddScalar returns t + v.
func (t *Tensor) AddScalar(v float64) *Tensor { return t.unary(backend.AddScalar, "AddScalar", v, 0) }

// SubScalar returns t - v.
func (t *Tensor) SubScalar(v float64) *Tensor { return t.unary(backend.AddScalar, "SubScalar", -v, 0) }

// MulScalar returns t * v.
func (t *Tensor) MulScalar(v float64) *Tensor { return t.unary(backend.MulScalar, "MulScalar", v, 0) }

// DivScalar returns t / v.
func (t *Tensor) DivScalar(v float64) *Tensor {
	return t.unary(backend.MulScalar, "DivScalar", 1/v, 0)
}

// Pow returns t raised elementwise to p.
func (t *Tensor) Pow(p float64) *Tensor { return t.unary(backend.Pow, "Pow", p, 0) }

// Neg returns -t.
func (t *Tensor) Neg() *Tensor { return t.unary(backend.Neg, "Neg", 0, 0) }

// Exp returns e^t.
func (t *Tensor) Exp() *Tensor { return t.unary(backend.Exp, "Exp", 0, 0) }

// Log returns the natural logarithm.
func (t *Tensor) Log() *Tensor { return t.unary(backend.Log, "Log", 0, 0) }

// Sqrt returns the square root.
func (t *Tensor) Sqrt() *Tensor { return t.unary(backend.Sqrt, "Sqrt", 0, 0) }

// Abs returns |t| (gradient 0 at 0, as PyTorch).
func (t *Tensor) Abs() *Tensor { return t.unary(backend.Abs, "Abs", 0, 0) }

// Tanh returns the hyperbolic tangent.
func (t *Tensor) Tanh() *Tensor { return t.unary(backend.Tanh, "Tanh", 0, 0) }

// Sigmoid returns 1/(1+e^-t).
func (t *Tensor) Sigmoid() *Tensor { return t.unary(backend.Sigmoid, "Sigmoid", 0, 0) }

// ReLU returns max(t, 0).
func (t *Tensor) ReLU() *Tensor { return t.unary(backend.ReLU, "ReLU", 0, 0) }

// GELU returns the exact (erf) Gaussian error linear unit, PyTorch's default.
func (t *Tensor) GELU() *Tensor { return t.unary(backend.GELU, "GELU", 0, 0) }

// GELUTanh returns GELU's tanh approximation 0.5·t·(1 + tanh(√(2/π)·(t + 0.044715·t³))),
// PyTorch's gelu(approximate="tanh") and GPT-2's activation.
func (t *Tensor) GELUTanh() *Tensor { return t.unary(backend.GELUTanh, "GELUTanh", 0, 0) }

// SiLU returns t * sigmoid(t).
func (t *Tensor) SiLU() *Tensor { return t.unary(backend.SiLU, "SiLU", 0, 0) }

// Clamp limits values to [min, max]; the gradient passes where min <= t <= max.
func (t *Tensor) Clamp(min, max float64) *Tensor { return t.unary(backend.Clamp, "Clamp", min, max) }
