package tensors

import (
	"slices"

	"github.com/goaccel/goaccel/internal/profiling"
)

// opSpan starts the profiler's event for the op name on its operands while a profile runs
// (accelerate.Profile: the op, its device and dtype, its operands' shapes); otherwise it is one
// atomic load and returns a Span whose End does nothing. Ops call it as
// `defer opSpan("Add", t, o).End()`.
func opSpan(name string, operands ...*Tensor) profiling.Span {
	r := profiling.Active()
	if r == nil {
		return profiling.Span{}
	}
	return startSpan(r, profiling.CatOp, name, operands)
}

// opSpanOf is opSpan for an op over a list of tensors (Cat, the optimizers' fused updates).
func opSpanOf(name string, ts []*Tensor) profiling.Span {
	r := profiling.Active()
	if r == nil {
		return profiling.Span{}
	}
	return startSpan(r, profiling.CatOp, name, ts)
}

// maxShapes bounds the shapes an event records (an optimizer step over hundreds of
// parameters records the first ones).
const maxShapes = 8

func startSpan(r *profiling.Recorder, cat, name string, operands []*Tensor) profiling.Span {
	var a profiling.Args
	for _, t := range operands {
		if t == nil {
			continue
		}
		if a.Device == "" {
			a.Device, a.DType = t.dev.String(), t.dtype.String()
		}
		if len(a.Shapes) < maxShapes {
			a.Shapes = append(a.Shapes, slices.Clone(t.shape))
		}
	}
	return r.Start(cat, name, a)
}

// backwardSpan starts the event of a backward node (op's gradient function) on its output's
// gradient g.
func backwardSpan(op string, g *Tensor) profiling.Span {
	r := profiling.Active()
	if r == nil {
		return profiling.Span{}
	}
	return startSpan(r, profiling.CatBackward, op+"Backward", []*Tensor{g})
}
