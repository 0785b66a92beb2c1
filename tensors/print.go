package tensors

import (
	"fmt"
	"math"
	"strings"
)

// printEdge is how many leading and trailing entries per dimension are shown for large tensors.
const printEdge = 3

// String formats the tensor like PyTorch: tensor([[1., 2.],\n        [3., 4.]], dtype=...).
func (t *Tensor) String() string {
	vals := t.Float64s()
	summarize := len(vals) > 1000
	format := numberFormat(t.dtype, vals)
	width := 0
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) { // PyTorch sizes columns by the finite values
			width = max(width, len(format(v)))
		}
	}
	var sb strings.Builder
	sb.WriteString("tensor(")
	if t.Dim() == 0 {
		sb.WriteString(format(vals[0]))
	} else {
		writeNested(&sb, vals, t.shape, 0, 0, width, format, summarize, len("tensor("))
	}
	var extra []string
	if t.dtype != Float32 && t.dtype != Int64 {
		extra = append(extra, "dtype=torch."+t.dtype.String())
	}
	if !t.dev.IsCPU() {
		extra = append(extra, fmt.Sprintf("device='%s'", t.dev))
	}
	if t.requiresGrad {
		if t.node != nil {
			extra = append(extra, fmt.Sprintf("grad_fn=<%sBackward>", t.node.op))
		} else {
			extra = append(extra, "requires_grad=True")
		}
	}
	for _, e := range extra {
		sb.WriteString(", " + e)
	}
	sb.WriteString(")")
	return sb.String()
}

// numberFormat picks PyTorch's style: integers as "1." when every float is whole, fixed
// four decimals normally, scientific when magnitudes are very large or small.
func numberFormat(dt DType, vals []float64) func(float64) string {
	if dt == Int64 {
		return func(v float64) string { return fmt.Sprintf("%d", int64(v)) }
	}
	whole, maxAbs, minAbs := true, 0.0, math.Inf(1)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if v != math.Trunc(v) {
			whole = false
		}
		a := math.Abs(v)
		maxAbs = max(maxAbs, a)
		if a != 0 {
			minAbs = min(minAbs, a)
		}
	}
	special := func(v float64) (string, bool) {
		switch {
		case math.IsNaN(v):
			return "nan", true
		case math.IsInf(v, 1):
			return "inf", true
		case math.IsInf(v, -1):
			return "-inf", true
		}
		return "", false
	}
	sci := maxAbs >= 1e8 || (minAbs < 1e-4 && minAbs != math.Inf(1)) || (maxAbs > 0 && maxAbs/minAbs > 1000 && !whole)
	return func(v float64) string {
		if s, ok := special(v); ok {
			return s
		}
		switch {
		case whole && maxAbs < 1e8:
			return fmt.Sprintf("%.0f.", v)
		case sci:
			return fmt.Sprintf("%.4e", v)
		}
		return fmt.Sprintf("%.4f", v)
	}
}

func writeNested(sb *strings.Builder, vals []float64, shape []int, dim, off, width int, format func(float64) string, summarize bool, indent int) {
	n := shape[dim]
	stride := numel(shape[dim+1:])
	sb.WriteString("[")
	for i := 0; i < n; i++ {
		if summarize && n > 2*printEdge && i == printEdge {
			if dim == len(shape)-1 {
				sb.WriteString(" ...")
			} else {
				sb.WriteString("...")
			}
			i = n - printEdge
			sb.WriteString(sep(dim, len(shape), indent))
		}
		if dim == len(shape)-1 {
			s := format(vals[off+i])
			sb.WriteString(strings.Repeat(" ", max(0, width-len(s))) + s)
		} else {
			writeNested(sb, vals, shape, dim+1, off+i*stride, width, format, summarize, indent)
		}
		if i < n-1 {
			sb.WriteString(sep(dim, len(shape), indent))
		}
	}
	sb.WriteString("]")
}

// sep separates siblings: ", " within a row, ",\n" plus indentation (and a blank line per
// extra level) between sub-arrays.
func sep(dim, nd, indent int) string {
	if dim == nd-1 {
		return ", "
	}
	return "," + strings.Repeat("\n", nd-1-dim) + strings.Repeat(" ", indent+dim+1)
}
