package cpu

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// CrossEntropy implements backend.Backend.
func (c *CPU) CrossEntropy(loss, prob, count, logits, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	if count != nil {
		n := 0
		for _, t := range target.I64[:rows] {
			if t != ignore {
				n++
			}
		}
		c.Fill(count, float64(n))
	}
	if logits.DType == backend.F64 {
		crossEntropy(loss.F64, prob.F64, logits.F64, target.I64, rows, classes, ignore, smoothing, expRow[float64])
		return
	}
	crossEntropy(loss.F32, prob.F32, logits.F32, target.I64, rows, classes, ignore, smoothing, expShiftSum)
}

func crossEntropy[T float](loss, prob, logits []T, target []int64, rows, classes int, ignore int64, eps float64,
	exps func(p, row []T, m T) float64) {
	for r := 0; r < rows; r++ {
		t := target[r]
		if t != ignore && (t < 0 || int(t) >= classes) {
			panic(fmt.Sprintf("tensors: CrossEntropy: target %d at row %d is outside [0, %d) (classes of logits)", t, r, classes))
		}
	}
	parallelFor(rows, rows*classes*16, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := logits[r*classes : (r+1)*classes]
			p := prob[r*classes : (r+1)*classes]
			m := maxT(row)
			sum := exps(p, row, m)
			var sumLogit float64
			if eps != 0 {
				for _, v := range row {
					sumLogit += float64(v)
				}
			}
			scaleT(p, T(1/sum))
			t := target[r]
			if t == ignore {
				loss[r] = 0
				continue
			}
			lse := float64(m) + math.Log(sum)
			nll := lse - float64(row[t])
			l := (1 - eps) * nll
			if eps != 0 {
				l += eps / float64(classes) * (float64(classes)*lse - sumLogit)
			}
			loss[r] = T(l)
		}
	})
}

// CrossEntropyGrad implements backend.Backend.
func (c *CPU) CrossEntropyGrad(dlogits, gl, prob, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	if prob.DType == backend.F64 {
		crossEntropyGrad(dlogits.F64, gl.F64, prob.F64, target.I64, rows, classes, ignore, smoothing)
		return
	}
	crossEntropyGrad(dlogits.F32, gl.F32, prob.F32, target.I64, rows, classes, ignore, smoothing)
}

func crossEntropyGrad[T float](d, gl, prob []T, target []int64, rows, classes int, ignore int64, eps float64) {
	u := T(eps / float64(classes))
	for r := 0; r < rows; r++ {
		out := d[r*classes : (r+1)*classes]
		t := target[r]
		if t == ignore {
			clear(out)
			continue
		}
		g := gl[0]
		if len(gl) > 1 {
			g = gl[r]
		}
		shiftScaleT(out, prob[r*classes:(r+1)*classes], u, g)
		out[t] -= g * T(1-eps)
	}
}
