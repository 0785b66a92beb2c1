package accelerate

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// Gather concatenates t from every process along the first dimension, in rank
// order (first dimensions may differ; the others must match). Float32 values
// travel as they are; other dtypes travel exactly as bytes.
func (a *Accelerator) Gather(t *tensors.Tensor) *tensors.Tensor {
	if a.c.Size() == 1 {
		return t
	}
	if t.Dim() == 0 {
		t = t.Reshape(1)
	}
	shapes, err := a.c.AllGatherBytes(encodeShape(t.Shape()))
	must(err, "Gather: exchange shapes")
	rows := 0
	for r, sb := range shapes {
		s := decodeShape(sb)
		if !sameTail(s, t.Shape()) {
			panic(fmt.Sprintf("accelerate: Gather: rank %d has shape %v and rank %d has %v; all but the first dimension must match (use PadAcrossProcesses)", r, s, a.c.Rank(), t.Shape()))
		}
		rows += s[0]
	}
	shape := append([]int{rows}, t.Shape()[1:]...)
	switch t.DType() {
	case tensors.Float32:
		out, err := a.c.AllGatherV(t.Float32s())
		must(err, "Gather")
		return tensors.New(out, shape...)
	case tensors.Int64:
		parts, err := a.c.AllGatherBytes(int64Bytes(t.Int64s()))
		must(err, "Gather")
		var all []int64
		for _, p := range parts {
			all = append(all, bytesInt64(p)...)
		}
		return tensors.FromInt64(all, shape...)
	default:
		parts, err := a.c.AllGatherBytes(float64Bytes(t.Float64s()))
		must(err, "Gather")
		var all []float64
		for _, p := range parts {
			all = append(all, bytesFloat64(p)...)
		}
		return tensors.NewFloat64(all, shape...).AsType(t.DType())
	}
}

// GatherForMetrics gathers t like Gather and, on the last batch of a prepared
// loader, drops the samples that were repeated to even out the batches, so an
// epoch of gathers yields exactly len(dataset) samples.
func (a *Accelerator) GatherForMetrics(t *tensors.Tensor) *tensors.Tensor {
	return a.GatherForMetricsAll(t)[0]
}

// GatherForMetricsAll is GatherForMetrics of several tensors in one call,
// Go's form of `preds, targets = accelerator.gather_for_metrics((preds, targets))`:
// each is gathered and the same padded duplicates are dropped from every one,
// so the results stay aligned sample by sample. They come back in the order
// given:
//
//	g := acc.GatherForMetricsAll(preds, labels)
//	preds, labels = g[0], g[1]
func (a *Accelerator) GatherForMetricsAll(ts ...*tensors.Tensor) []*tensors.Tensor {
	rem := -1 // samples of the last round to keep; -1 keeps all
	if s := a.active(); s != nil && s.atEnd() && s.spec.even {
		rem = s.spec.remainder(s.n)
	}
	out := make([]*tensors.Tensor, len(ts))
	for i, t := range ts {
		if t == nil {
			panic(fmt.Sprintf("accelerate: GatherForMetricsAll: tensor %d is nil", i))
		}
		g := a.Gather(t)
		if rem > 0 && rem < g.Size(0) {
			g = g.Slice(0, 0, rem)
		}
		out[i] = g
	}
	return out
}

// Reduce combines t across processes elementwise: op is "sum", "mean", "max" or "min".
// The result is a new tensor on t's device.
func (a *Accelerator) Reduce(t *tensors.Tensor, op string) *tensors.Tensor {
	checkChoice("Reduce op", op, "sum", "mean", "max", "min")
	vals := t.Float32s()
	if a.c.Size() > 1 {
		switch op {
		case "sum", "mean":
			must(a.c.AllReduce(vals, "sum"), "Reduce")
		case "max":
			must(a.c.AllReduce(vals, "max"), "Reduce")
		case "min":
			for i := range vals {
				vals[i] = -vals[i]
			}
			must(a.c.AllReduce(vals, "max"), "Reduce")
			for i := range vals {
				vals[i] = -vals[i]
			}
		}
	}
	if op == "mean" {
		inv := 1 / float32(a.c.Size())
		for i := range vals {
			vals[i] *= inv
		}
	}
	out := tensors.New(vals, t.Shape()...)
	if t.DType() != tensors.Float32 {
		out = out.AsType(t.DType())
	}
	return out.To(t.Device())
}

// PadAcrossProcesses pads t along dim with value to the largest size any
// process has there, at the end (or at the start with padFirst), so tensors
// of different lengths can be gathered.
func (a *Accelerator) PadAcrossProcesses(t *tensors.Tensor, dim int, value float64, padFirst bool) *tensors.Tensor {
	if dim < 0 {
		dim += t.Dim()
	}
	if dim < 0 || dim >= t.Dim() {
		panic(fmt.Sprintf("accelerate: PadAcrossProcesses: dim %d out of range for shape %v", dim, t.Shape()))
	}
	size := []float32{float32(t.Size(dim))}
	must(a.c.AllReduce(size, "max"), "PadAcrossProcesses")
	longest := int(size[0])
	if longest == t.Size(dim) {
		return t
	}
	padShape := append([]int(nil), t.Shape()...)
	padShape[dim] = longest - t.Size(dim)
	pad := tensors.Full(value, padShape...)
	if t.DType() != tensors.Float32 {
		pad = pad.AsType(t.DType())
	}
	pad = pad.To(t.Device())
	if padFirst {
		return tensors.Cat([]*tensors.Tensor{pad, t}, dim)
	}
	return tensors.Cat([]*tensors.Tensor{t, pad}, dim)
}

func encodeShape(s []int) []byte {
	b := make([]byte, 8*len(s))
	for i, v := range s {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	return b
}

func decodeShape(b []byte) []int {
	s := make([]int, len(b)/8)
	for i := range s {
		s[i] = int(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return s
}

// sameTail reports whether a and b have the same rank and agree past the first dimension.
func sameTail(a, b []int) bool {
	return len(a) == len(b) && (len(a) == 0 || slices.Equal(a[1:], b[1:]))
}

func int64Bytes(v []int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

func bytesInt64(b []byte) []int64 {
	v := make([]int64, len(b)/8)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

func float64Bytes(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func bytesFloat64(b []byte) []float64 {
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}
