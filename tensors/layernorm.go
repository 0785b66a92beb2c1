package tensors

import (
	"fmt"
	"slices"
)

// LayerNorm normalises x over its trailing normalizedShape dims to zero mean and unit variance,
// then applies weight and bias (either may be nil).
func LayerNorm(x *Tensor, normalizedShape []int, weight, bias *Tensor, eps float64) *Tensor {
	defer opSpan("LayerNorm", x, weight, bias).End()
	k := len(normalizedShape)
	if k == 0 || x.Dim() < k || !slices.Equal(x.shape[x.Dim()-k:], normalizedShape) {
		panic(fmt.Sprintf("tensors: LayerNorm: input shape %v does not end with normalized shape %v", x.shape, normalizedShape))
	}
	for _, p := range []*Tensor{weight, bias} {
		if p != nil && !slices.Equal(p.shape, normalizedShape) {
			panic(fmt.Sprintf("tensors: LayerNorm: parameter shape %v does not match normalized shape %v", p.shape, normalizedShape))
		}
	}
	checkDevices("LayerNorm", x, weight, bias)
	xc := x.dense()
	dt := xc.dtype
	var w, b *Tensor
	if weight != nil {
		w = weight.AsType(dt)
		w = handOverUnless(w, weight, w.contig())
	}
	if bias != nil {
		b = bias.AsType(dt)
		b = handOverUnless(b, bias, b.contig())
	}
	n := numel(normalizedShape)
	rows := xc.Numel() / max(n, 1)
	y := empty(dt, xc.dev, xc.shape...)
	mean, rstd := empty(dt, xc.dev, rows), empty(dt, xc.dev, rows)
	xc.be().LayerNorm(y.buf(), mean.buf(), rstd.buf(), xc.buf(), bufOf(w), bufOf(b), rows, n, eps)
	record(y, "LayerNorm", []*Tensor{x, weight, bias}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		var dx, dw, db *Tensor
		if x.requiresGrad {
			dx = empty(dt, xc.dev, xc.shape...)
		}
		if weight != nil && weight.requiresGrad {
			dw = zeros(dt, xc.dev, normalizedShape...)
		}
		if bias != nil && bias.requiresGrad {
			db = zeros(dt, xc.dev, normalizedShape...)
		}
		xc.be().LayerNormGrad(bufOf(dx), bufOf(dw), bufOf(db), gc.buf(), xc.buf(), mean.buf(), rstd.buf(), bufOf(w), rows, n)
		releaseIfNot(gc, g)
		return []*Tensor{dx, dw, db}
	}, xc, w, mean, rstd)
	releaseIfNot(xc, x)
	releaseIfNot(w, weight)
	releaseIfNot(b, bias)
	mean.release()
	rstd.release()
	return y
}
