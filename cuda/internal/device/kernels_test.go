package device

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/kernels"
	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// twin runs every backend call on the emulated GPU and on the CPU backend with the same inputs,
// and compares what they write.
type twin struct {
	t *testing.T
	d *Device
	c *cpu.CPU
	r *rand.Rand
}

func newTwin(t *testing.T) *twin {
	return &twin{t: t, d: open(t), c: cpu.New(), r: rand.New(rand.NewPCG(3, 9))}
}

// pair is one buffer on both backends.
type pair struct{ c, d *backend.Buffer }

func setHost(h *backend.Buffer, i int, v float64) {
	switch h.DType {
	case backend.F32:
		h.F32[i] = float32(v)
	case backend.F64:
		h.F64[i] = v
	case backend.I64:
		h.I64[i] = int64(v)
	case backend.BF16:
		h.U16[i] = half.F32ToBF16(float32(v))
	case backend.F16:
		h.U16[i] = half.F32ToF16(float32(v))
	}
}

func getHost(h *backend.Buffer, i int) float64 {
	switch h.DType {
	case backend.F32:
		return float64(h.F32[i])
	case backend.F64:
		return h.F64[i]
	case backend.I64:
		return float64(h.I64[i])
	case backend.BF16:
		return float64(half.BF16ToF32(h.U16[i]))
	}
	return float64(half.F16ToF32(h.U16[i]))
}

// of puts vals on both backends as dt.
func (w *twin) of(dt backend.DType, vals []float64) pair {
	h := backend.NewHost(dt, len(vals))
	for i, v := range vals {
		setHost(h, i, v)
	}
	return pair{h, w.d.Upload(h)}
}

// zeros is a zeroed buffer of n elements on both.
func (w *twin) zeros(dt backend.DType, n int) pair { return w.of(dt, make([]float64, n)) }

// rnd is n uniform values in [lo, hi); integers when whole.
func (w *twin) rnd(n int, lo, hi float64, whole bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*w.r.Float64()
		if whole {
			v[i] = math.Floor(v[i])
		}
	}
	return v
}

// same compares the GPU's p.d with the CPU's p.c, elementwise to tol relative (with an absolute
// floor of tol).
func (w *twin) same(what string, p pair, tol float64) {
	w.t.Helper()
	got := w.d.Download(p.d)
	for i := 0; i < p.c.Len; i++ {
		g, c := getHost(got, i), getHost(p.c, i)
		if math.IsNaN(c) && math.IsNaN(g) {
			continue
		}
		if math.Abs(g-c) > tol*math.Max(1, math.Abs(c)) {
			w.t.Errorf("%s: element %d of %d: GPU %v, CPU %v", what, i, p.c.Len, g, c)
			return
		}
	}
}

func st(b *backend.Buffer, off int, strides ...int) backend.Strided {
	return backend.Strided{Buf: b, Offset: off, Strides: strides}
}

var floats = []backend.DType{backend.F32, backend.F64}

// exercise calls every kernel of the backend on both devices, in every element type it has a
// kernel for, and compares the results.
func exercise(w *twin) {
	d, c := w.d, w.c
	tol := func(dt backend.DType) float64 {
		if dt == backend.F32 {
			return 2e-5
		}
		return 1e-12
	}
	for _, dt := range floats {
		n := 700
		x := w.of(dt, w.rnd(n, -3, 3, false))
		pos := w.of(dt, w.rnd(n, 0.1, 3, false))
		g := w.of(dt, w.rnd(n, -1, 1, false))
		for op := backend.Neg; op <= backend.GELUTanh; op++ {
			in := x
			if op == backend.Log || op == backend.Sqrt || op == backend.Pow {
				in = pos
			}
			y, dx := w.zeros(dt, n), w.zeros(dt, n)
			for _, b := range []struct {
				be   backend.Backend
				y, x *backend.Buffer
			}{{c, y.c, in.c}, {d, y.d, in.d}} {
				b.be.Unary(op, b.y, b.x, 2.5, -0.5)
			}
			w.same(fmt.Sprintf("Unary %d %s", op, dt), y, tol(dt))
			c.UnaryGrad(op, dx.c, g.c, in.c, y.c, 2.5, -0.5)
			d.UnaryGrad(op, dx.d, g.d, in.d, y.d, 2.5, -0.5)
			w.same(fmt.Sprintf("UnaryGrad %d %s", op, dt), dx, 1e3*tol(dt))
		}
	}
	// Binary: flat (contiguous, and a broadcast scalar) and strided (broadcast rows), in every type.
	for _, dt := range []backend.DType{backend.F32, backend.F64, backend.I64} {
		whole := dt == backend.I64
		a, b := w.of(dt, w.rnd(24, -5, 5, whole)), w.of(dt, w.rnd(24, 1, 5, whole))
		for op := backend.Add; op <= backend.Max2; op++ {
			flat, scalar, strided := w.zeros(dt, 24), w.zeros(dt, 24), w.zeros(dt, 24)
			for _, be := range []struct {
				be               backend.Backend
				a, b, f, s, strd *backend.Buffer
			}{{c, a.c, b.c, flat.c, scalar.c, strided.c}, {d, a.d, b.d, flat.d, scalar.d, strided.d}} {
				be.be.Binary(op, be.f, st(be.a, 0, 1), st(be.b, 0, 1), []int{24})
				be.be.Binary(op, be.s, st(be.a, 0, 1), st(be.b, 3, 0), []int{24})
				be.be.Binary(op, be.strd, st(be.a, 0, 1, 4), st(be.b, 2, 0, 1), []int{6, 4})
			}
			w.same(fmt.Sprintf("Binary %d %s flat", op, dt), flat, tol(dt))
			w.same(fmt.Sprintf("Binary %d %s scalar", op, dt), scalar, tol(dt))
			w.same(fmt.Sprintf("Binary %d %s strided", op, dt), strided, tol(dt))
		}
		cond := w.of(backend.F32, w.rnd(6, 0, 2, true))
		out := w.zeros(dt, 24)
		c.Where(out.c, st(cond.c, 0, 1, 0), st(a.c, 0, 4, 1), st(b.c, 5, 0, 1), []int{6, 4})
		d.Where(out.d, st(cond.d, 0, 1, 0), st(a.d, 0, 4, 1), st(b.d, 5, 0, 1), []int{6, 4})
		w.same("Where "+dt.String(), out, 0)
		for op := backend.Sum; op <= backend.ArgMin; op++ {
			odt := dt
			if op == backend.ArgMax || op == backend.ArgMin {
				odt = backend.I64
			}
			src := w.of(dt, w.rnd(3*300*2, -9, 9, true)) // ties, so the first extreme must win
			r := w.zeros(odt, 6)
			c.Reduce(op, r.c, src.c, 3, 300, 2)
			d.Reduce(op, r.d, src.d, 3, 300, 2)
			w.same(fmt.Sprintf("Reduce %d %s", op, dt), r, tol(dt))
		}
	}
	// Copies: same-type strided copies of every element size, conversions between every type
	// (values that round: halves' ties, subnormals, overflow), fills.
	for _, dt := range []backend.DType{backend.BF16, backend.F32, backend.F64} {
		v := w.rnd(40, -300, 300, false)
		v[3], v[5], v[9] = 1+1.0/256, 1+3.0/2048, 1e-6 // a bfloat16 tie, a float16 tie, a float16 subnormal
		v[11], v[13] = 7e4, -1e40                      // past float16, past float32
		src := w.of(dt, v)
		dst := w.zeros(dt, 20)
		c.Copy(st(dst.c, 0, 5, 1), st(src.c, 1, 1, 8), []int{4, 5})
		d.Copy(st(dst.d, 0, 5, 1), st(src.d, 1, 1, 8), []int{4, 5})
		w.same("strided Copy "+dt.String(), dst, 0)
		for _, to := range []backend.DType{backend.F32, backend.F64, backend.BF16, backend.F16, backend.I64} {
			conv := w.zeros(to, 20)
			c.Copy(st(conv.c, 0, 1, 5), st(src.c, 2, 8, 1), []int{5, 4})
			d.Copy(st(conv.d, 0, 1, 5), st(src.d, 2, 8, 1), []int{5, 4})
			w.same("converting Copy "+dt.String()+" to "+to.String(), conv, 0)
		}
	}
	for _, dt := range []backend.DType{backend.F64, backend.I64, backend.F32, backend.BF16} {
		f := w.zeros(dt, 300)
		c.Fill(f.c, -7)
		d.Fill(f.d, -7)
		w.same("Fill "+dt.String(), f, 0)
	}
	for _, dt := range floats {
		rows, n := 5, 300
		x := w.of(dt, w.rnd(rows*n, -4, 4, false))
		gy := w.of(dt, w.rnd(rows*n, -1, 1, false))
		for _, log := range []bool{false, true} {
			y, dx := w.zeros(dt, rows*n), w.zeros(dt, rows*n)
			c.Softmax(y.c, x.c, rows, n, 1, log)
			d.Softmax(y.d, x.d, rows, n, 1, log)
			w.same(fmt.Sprintf("Softmax log=%v %s", log, dt), y, tol(dt))
			c.SoftmaxGrad(dx.c, gy.c, y.c, rows, n, 1, log)
			d.SoftmaxGrad(dx.d, gy.d, y.d, rows, n, 1, log)
			w.same(fmt.Sprintf("SoftmaxGrad log=%v %s", log, dt), dx, 10*tol(dt))
		}
		wt, bs := w.of(dt, w.rnd(n, 0.5, 1.5, false)), w.of(dt, w.rnd(n, -1, 1, false))
		y, mean, rstd := w.zeros(dt, rows*n), w.zeros(dt, rows), w.zeros(dt, rows)
		c.LayerNorm(y.c, mean.c, rstd.c, x.c, wt.c, bs.c, rows, n, 1e-5)
		d.LayerNorm(y.d, mean.d, rstd.d, x.d, wt.d, bs.d, rows, n, 1e-5)
		w.same("LayerNorm "+dt.String(), y, 10*tol(dt))
		dx, dw, db := w.zeros(dt, rows*n), w.zeros(dt, n), w.zeros(dt, n)
		c.LayerNormGrad(dx.c, dw.c, db.c, gy.c, x.c, mean.c, rstd.c, wt.c, rows, n)
		d.LayerNormGrad(dx.d, dw.d, db.d, gy.d, x.d, mean.d, rstd.d, wt.d, rows, n)
		w.same("LayerNormGrad dx "+dt.String(), dx, 10*tol(dt))
		w.same("LayerNormGrad dw "+dt.String(), dw, 10*tol(dt))
		w.same("LayerNormGrad db "+dt.String(), db, 10*tol(dt))
		classes := 10
		logits := w.of(dt, w.rnd(rows*classes, -3, 3, false))
		target := w.of(backend.I64, []float64{3, -100, 9, 0, 5})
		loss, prob, count := w.zeros(dt, rows), w.zeros(dt, rows*classes), w.zeros(dt, 1)
		c.CrossEntropy(loss.c, prob.c, count.c, logits.c, target.c, rows, classes, -100, 0.1)
		d.CrossEntropy(loss.d, prob.d, count.d, logits.d, target.d, rows, classes, -100, 0.1)
		w.same("CrossEntropy loss "+dt.String(), loss, 10*tol(dt))
		w.same("CrossEntropy count "+dt.String(), count, 0)
		gl, dl := w.of(dt, w.rnd(rows, 0, 1, false)), w.zeros(dt, rows*classes)
		c.CrossEntropyGrad(dl.c, gl.c, prob.c, target.c, rows, classes, -100, 0.1)
		d.CrossEntropyGrad(dl.d, gl.d, prob.d, target.d, rows, classes, -100, 0.1)
		w.same("CrossEntropyGrad "+dt.String(), dl, 10*tol(dt))
	}
	// Indexing: the moving kernels in every element size, the adding ones in both float types.
	idx := w.of(backend.I64, []float64{2, 0, 2, 1})
	gidx := w.of(backend.I64, w.rnd(2*4*3, 0, 3, true))
	for _, dt := range []backend.DType{backend.BF16, backend.F32, backend.F64, backend.I64} {
		src := w.of(dt, w.rnd(2*3*3, -5, 5, true))
		sel, gat := w.zeros(dt, 2*4*3), w.zeros(dt, 2*4*3)
		c.IndexSelect(sel.c, src.c, idx.c, 2, 3, 3)
		d.IndexSelect(sel.d, src.d, idx.d, 2, 3, 3)
		w.same("IndexSelect "+dt.String(), sel, 0)
		c.Gather(gat.c, src.c, gidx.c, 2, 3, 4, 3)
		d.Gather(gat.d, src.d, gidx.d, 2, 3, 4, 3)
		w.same("Gather "+dt.String(), gat, 0)
		if dt != backend.F32 && dt != backend.F64 {
			continue
		}
		rows := w.of(dt, w.rnd(2*4*3, -5, 5, false))
		add, sc := w.zeros(dt, 2*3*3), w.zeros(dt, 2*3*3)
		c.IndexAdd(add.c, rows.c, idx.c, 2, 3, 3)
		d.IndexAdd(add.d, rows.d, idx.d, 2, 3, 3)
		w.same("IndexAdd "+dt.String(), add, tol(dt))
		c.ScatterAdd(sc.c, rows.c, gidx.c, 2, 3, 4, 3)
		d.ScatterAdd(sc.d, rows.d, gidx.d, 2, 3, 4, 3)
		w.same("ScatterAdd "+dt.String(), sc, tol(dt))
	}
	for _, dt := range floats {
		// One 3×7×6 image, 3×3 kernel, stride 2, padding 1: 4×3 outputs.
		ch, h, wd, k, stride, pad, oh, ow := 3, 7, 6, 3, 2, 1, 4, 3
		img := w.of(dt, w.rnd(ch*h*wd, -2, 2, false))
		ld := oh*ow + 5 // columns of another image beside
		col := w.zeros(dt, ch*k*k*ld)
		c.Im2col(col.c, 2, ld, img.c, 0, ch, h, wd, k, k, stride, pad, oh, ow)
		d.Im2col(col.d, 2, ld, img.d, 0, ch, h, wd, k, k, stride, pad, oh, ow)
		w.same("Im2col "+dt.String(), col, 0)
		back := w.of(dt, w.rnd(ch*h*wd, -1, 1, false))
		c.Col2im(back.c, 0, col.c, 2, ld, ch, h, wd, k, k, stride, pad, oh, ow)
		d.Col2im(back.d, 0, col.d, 2, ld, ch, h, wd, k, k, stride, pad, oh, ow)
		w.same("Col2im "+dt.String(), back, tol(dt))
		planes, ph, pw, pk, ps, poh, pow := 2, 6, 6, 3, 2, 2, 2
		vals := w.rnd(planes*ph*pw, -3, 3, true) // ties
		vals[7], vals[9] = math.NaN(), math.NaN()
		px := w.of(dt, vals)
		py, arg := w.zeros(dt, planes*poh*pow), w.zeros(backend.I64, planes*poh*pow)
		c.MaxPool2d(py.c, arg.c, px.c, planes, ph, pw, pk, ps, poh, pow)
		d.MaxPool2d(py.d, arg.d, px.d, planes, ph, pw, pk, ps, poh, pow)
		w.same("MaxPool2d "+dt.String(), py, 0)
		w.same("MaxPool2d argmax "+dt.String(), arg, 0)
		pg, pdx := w.of(dt, w.rnd(planes*poh*pow, -1, 1, false)), w.zeros(dt, planes*ph*pw)
		c.MaxPool2dGrad(pdx.c, pg.c, arg.c, planes, ph, pw, pk, ps, poh, pow)
		d.MaxPool2dGrad(pdx.d, pg.d, arg.d, planes, ph, pw, pk, ps, poh, pow)
		w.same("MaxPool2dGrad "+dt.String(), pdx, tol(dt))
		// AvgPool2d: padded windows counted in the divisor, left out of it, a divisor override
		// and adaptive windows of unequal sizes (6 → 4 overlaps them).
		for i, ap := range []backend.AvgPoolParams{
			{Planes: planes, H: ph, W: pw, OH: 3, OW: 3, KH: 3, KW: 3, SH: 2, SW: 2, PH: 1, PW: 1, CountIncludePad: true},
			{Planes: planes, H: ph, W: pw, OH: 3, OW: 4, KH: 3, KW: 2, SH: 2, SW: 2, PH: 1, PW: 1},
			{Planes: planes, H: ph, W: pw, OH: 2, OW: 2, KH: 2, KW: 2, SH: 3, SW: 3, Divisor: 3},
			{Planes: planes, H: ph, W: pw, OH: 4, OW: 4, Adaptive: true},
		} {
			ax := w.of(dt, w.rnd(planes*ph*pw, -3, 3, false))
			ay := w.zeros(dt, planes*ap.OH*ap.OW)
			c.AvgPool2d(ay.c, ax.c, ap)
			d.AvgPool2d(ay.d, ax.d, ap)
			w.same(fmt.Sprintf("AvgPool2d %d %s", i, dt), ay, tol(dt))
			ag, adx := w.of(dt, w.rnd(planes*ap.OH*ap.OW, -1, 1, false)), w.zeros(dt, planes*ph*pw)
			c.AvgPool2dGrad(adx.c, ag.c, ap)
			d.AvgPool2dGrad(adx.d, ag.d, ap)
			w.same(fmt.Sprintf("AvgPool2dGrad %d %s", i, dt), adx, tol(dt))
		}
	}
	// The optimizer updates and the gradient checks (float32), over two parameters each.
	vecs := func(bufs ...pair) ([]backend.Vec, []backend.Vec) {
		var vc, vd []backend.Vec
		for _, b := range bufs {
			vc, vd = append(vc, backend.Vec{Buf: b.c, Len: b.c.Len}), append(vd, backend.Vec{Buf: b.d, Len: b.d.Len})
		}
		return vc, vd
	}
	p1, p2 := w.of(backend.F32, w.rnd(300, -1, 1, false)), w.of(backend.F32, w.rnd(40, -1, 1, false))
	g1, g2 := w.of(backend.F32, w.rnd(300, -1, 1, false)), w.of(backend.F32, w.rnd(40, -1, 1, false))
	m1, m2, v1, v2 := w.zeros(backend.F32, 300), w.zeros(backend.F32, 40), w.zeros(backend.F32, 300), w.zeros(backend.F32, 40)
	wc, wd := vecs(p1, p2)
	gc, gd := vecs(g1, g2)
	mc, md := vecs(m1, m2)
	vc, vd := vecs(v1, v2)
	adam := []backend.AdamScalars{{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.999, OneMinusBeta2: 0.001, BC2: 0.0316, Eps: 1e-8, StepSize: -0.01, Shrink: 0.999, L2: 0},
		{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.99, OneMinusBeta2: 0.01, BC2: 0.1, Eps: 1e-8, StepSize: -0.001, Shrink: 1, L2: 0.01}}
	c.AdamStep(wc, gc, mc, vc, adam)
	d.AdamStep(wd, gd, md, vd, adam)
	w.same("AdamStep w", p1, 0)
	w.same("AdamStep v", v2, 0)
	sgd := []backend.SGDScalars{{LR: 0.1, WeightDecay: 0.01, Momentum: 0.9, OneMinusDampening: 1, Nesterov: true, First: true}, {LR: 0.05}}
	bc, bd := vecs(m1)
	bc, bd = append(bc, backend.Vec{}), append(bd, backend.Vec{})
	c.SGDStep(wc, gc, bc, sgd)
	d.SGDStep(wd, gd, bd, sgd)
	w.same("SGDStep w", p1, 0)
	w.same("SGDStep plain w", p2, 0)
	w.same("SGDStep buf", m1, 0)
	// The adaptive optimizers: weight decay on one parameter, RMSprop with and without momentum
	// and centering (a nil Buf is an unused state).
	s1, s2, a1, a2 := w.zeros(backend.F32, 300), w.zeros(backend.F32, 40), w.zeros(backend.F32, 300), w.zeros(backend.F32, 40)
	sc, sd := vecs(s1, s2)
	ac, ad := vecs(a1, a2)
	for step := range 2 {
		c.AdadeltaStep(wc, gc, sc, ac, []backend.AdadeltaScalars{{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6, WeightDecay: 0.01}, {LR: 0.5, Rho: 0.95, OneMinusRho: 0.05, Eps: 1e-6}})
		d.AdadeltaStep(wd, gd, sd, ad, []backend.AdadeltaScalars{{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6, WeightDecay: 0.01}, {LR: 0.5, Rho: 0.95, OneMinusRho: 0.05, Eps: 1e-6}})
		w.same(fmt.Sprintf("AdadeltaStep %d w", step), p1, 0)
		w.same(fmt.Sprintf("AdadeltaStep %d acc", step), a2, 0)
	}
	mom1, avg1 := w.zeros(backend.F32, 300), w.zeros(backend.F32, 300)
	momc, momd := vecs(mom1)
	momc, momd = append(momc, backend.Vec{}), append(momd, backend.Vec{})
	avgc, avgd := vecs(avg1)
	avgc, avgd = append(avgc, backend.Vec{}), append(avgd, backend.Vec{})
	rms := []backend.RMSpropScalars{{LR: 0.01, Alpha: 0.99, OneMinusAlpha: 0.01, Eps: 1e-8, WeightDecay: 0.01, Momentum: 0.9, Centered: true}, {LR: 0.01, Alpha: 0.9, OneMinusAlpha: 0.1, Eps: 1e-8}}
	c.RMSpropStep(wc, gc, sc, momc, avgc, rms)
	d.RMSpropStep(wd, gd, sd, momd, avgd, rms)
	w.same("RMSpropStep w", p1, 0)
	w.same("RMSpropStep plain w", p2, 0)
	w.same("RMSpropStep momentum", mom1, 0)
	w.same("RMSpropStep grad avg", avg1, 0)
	ada := []backend.AdagradScalars{{CLR: 0.01, Eps: 1e-10, WeightDecay: 0.01}, {CLR: 0.005, Eps: 1e-10}}
	c.AdagradStep(wc, gc, ac, ada)
	d.AdagradStep(wd, gd, ad, ada)
	w.same("AdagradStep w", p1, 0)
	w.same("AdagradStep sum", a2, 0)
	ss := w.zeros(backend.F64, 1)
	c.SumSquares(ss.c, gc)
	d.SumSquares(ss.d, gd)
	w.same("SumSquares", ss, 1e-12)
	found := w.zeros(backend.F32, 1)
	c.ScaleCheck(gc, 0.5, found.c)
	d.ScaleCheck(gd, 0.5, found.d)
	w.same("ScaleCheck", g1, 0)
	w.same("ScaleCheck found", found, 0)
	for _, dt := range floats {
		p := backend.AttentionParams{Batch: 2, Heads: 2, Tq: 5, Tk: 7, D: 40, Dv: 36, Scale: 0.2, Causal: true, Dropout: 0.2, Seed: 11}
		q, k, v := w.of(dt, w.rnd(2*2*5*40, -1, 1, false)), w.of(dt, w.rnd(2*2*7*40, -1, 1, false)), w.of(dt, w.rnd(2*2*7*36, -1, 1, false))
		sq, sk, sv, so := []int{2 * 5 * 40, 5 * 40, 40, 1}, []int{2 * 7 * 40, 7 * 40, 40, 1}, []int{2 * 7 * 36, 7 * 36, 36, 1}, []int{2 * 5 * 36, 5 * 36, 36, 1}
		out, lse := w.zeros(dt, 2*2*5*36), w.zeros(dt, p.Rows())
		c.Attention(st(out.c, 0, so...), lse.c, st(q.c, 0, sq...), st(k.c, 0, sk...), st(v.c, 0, sv...), p)
		d.Attention(st(out.d, 0, so...), lse.d, st(q.d, 0, sq...), st(k.d, 0, sk...), st(v.d, 0, sv...), p)
		w.same("Attention "+dt.String(), out, 10*tol(dt))
		w.same("Attention lse "+dt.String(), lse, 10*tol(dt))
		gout := w.of(dt, w.rnd(2*2*5*36, -1, 1, false))
		dq, dk, dv := w.zeros(dt, q.c.Len), w.zeros(dt, k.c.Len), w.zeros(dt, v.c.Len)
		c.AttentionGrad(st(dq.c, 0, sq...), st(dk.c, 0, sk...), st(dv.c, 0, sv...), st(gout.c, 0, so...), st(out.c, 0, so...), lse.c, st(q.c, 0, sq...), st(k.c, 0, sk...), st(v.c, 0, sv...), p)
		d.AttentionGrad(st(dq.d, 0, sq...), st(dk.d, 0, sk...), st(dv.d, 0, sv...), st(gout.d, 0, so...), st(out.d, 0, so...), lse.d, st(q.d, 0, sq...), st(k.d, 0, sk...), st(v.d, 0, sv...), p)
		w.same("AttentionGrad dq "+dt.String(), dq, 100*tol(dt))
		w.same("AttentionGrad dk "+dt.String(), dk, 100*tol(dt))
		w.same("AttentionGrad dv "+dt.String(), dv, 100*tol(dt))
		// A key padding mask: row 0 is left and right padded (its first two queries see no key
		// under the causal mask: zeros, +Inf log-sum-exp, no gradient), row 1 has holes.
		mask := w.of(backend.I64, []float64{0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 0})
		p.KeyMask = mask.c
		c.Attention(st(out.c, 0, so...), lse.c, st(q.c, 0, sq...), st(k.c, 0, sk...), st(v.c, 0, sv...), p)
		c.AttentionGrad(st(dq.c, 0, sq...), st(dk.c, 0, sk...), st(dv.c, 0, sv...), st(gout.c, 0, so...), st(out.c, 0, so...), lse.c, st(q.c, 0, sq...), st(k.c, 0, sk...), st(v.c, 0, sv...), p)
		p.KeyMask = mask.d
		d.Attention(st(out.d, 0, so...), lse.d, st(q.d, 0, sq...), st(k.d, 0, sk...), st(v.d, 0, sv...), p)
		d.AttentionGrad(st(dq.d, 0, sq...), st(dk.d, 0, sk...), st(dv.d, 0, sv...), st(gout.d, 0, so...), st(out.d, 0, so...), lse.d, st(q.d, 0, sq...), st(k.d, 0, sk...), st(v.d, 0, sv...), p)
		w.same("Attention with a key mask "+dt.String(), out, 10*tol(dt))
		w.same("Attention lse with a key mask "+dt.String(), lse, 10*tol(dt))
		w.same("AttentionGrad dq with a key mask "+dt.String(), dq, 100*tol(dt))
		w.same("AttentionGrad dk with a key mask "+dt.String(), dk, 100*tol(dt))
		w.same("AttentionGrad dv with a key mask "+dt.String(), dv, 100*tol(dt))
		if got := getHost(w.d.Download(lse.d), 0); !math.IsInf(got, 1) {
			w.t.Errorf("Attention with a key mask %s: a query that sees no key has log-sum-exp %v, want +Inf", dt, got)
		}
		vals := w.rnd(3*20*2, -5, 5, true)
		vals[4] = math.NaN()
		src := w.of(dt, vals)
		for _, largest := range []bool{true, false} {
			tv, ti := w.zeros(dt, 3*4*2), w.zeros(backend.I64, 3*4*2)
			c.TopK(tv.c, ti.c, src.c, 3, 20, 2, 4, largest)
			d.TopK(tv.d, ti.d, src.d, 3, 20, 2, 4, largest)
			w.same(fmt.Sprintf("TopK largest=%v %s", largest, dt), tv, 0)
			w.same(fmt.Sprintf("TopK indices largest=%v %s", largest, dt), ti, 0)
		}
		probs := w.of(dt, w.rnd(3*6, 0, 1, false))
		u := w.of(backend.F64, w.rnd(3*4, 0, 1, false))
		for _, repl := range []bool{true, false} {
			out := w.zeros(backend.I64, 3*4)
			c.Multinomial(out.c, probs.c, u.c, 3, 6, 4, repl)
			d.Multinomial(out.d, probs.d, u.d, 3, 6, 4, repl)
			w.same(fmt.Sprintf("Multinomial replacement=%v %s", repl, dt), out, 0)
		}
	}
}

// TestEveryKernelAgreesWithTheCPUBackend runs each of goaccel's kernels on the emulated GPU,
// through the bindings, in every element type it has, against the CPU backend.
func TestEveryKernelAgreesWithTheCPUBackend(t *testing.T) { exercise(newTwin(t)) }

// ptxKind is the Go marshalling a PTX parameter type wants.
func ptxKind(p kernels.Param) string {
	switch p.Type {
	case "u32", "s32", "b32":
		return "int32"
	case "u64", "s64", "b64":
		return "int64"
	case "f32":
		return "float32"
	case "f64":
		return "float64"
	}
	return "struct"
}

// TestEveryPTXEntryGetsTheParametersItDeclares compares, for every entry of the embedded PTX,
// the .param list (count, C type, size, alignment) with what the Go side marshals for each of
// its launches: a parameter of the wrong width or type would otherwise be read from the
// neighbouring bytes by the GPU. Every entry must be launched: a kernel added to the sources
// needs a case in exercise.
func TestEveryPTXEntryGetsTheParametersItDeclares(t *testing.T) {
	ents, err := kernels.Entries()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]kernels.Param{}
	for _, e := range ents {
		want[e.Name] = e.Params
	}
	w := newTwin(t)
	launched, reported := map[string]bool{}, map[string]bool{}
	w.d.onLaunch = func(name string, args []arg, at []unsafe.Pointer) {
		launched[name] = true
		ps, ok := want[name]
		if !ok {
			t.Errorf("launch of %s, which the PTX does not have", name)
			return
		}
		if len(ps) != len(args) {
			t.Errorf("%s: %d parameters marshalled, the PTX declares %d", name, len(args), len(ps))
			return
		}
		for i, p := range ps {
			a := args[i]
			key := fmt.Sprint(name, i)
			if (a.kind != ptxKind(p) || len(a.bytes) != p.Size || (a.kind == "struct" && a.align != p.Align) || uintptr(at[i])%uintptr(p.Align) != 0) && !reported[key] {
				reported[key] = true
				t.Errorf("%s parameter %d: marshalled as %s of %d bytes (alignment %d, at %p); the PTX declares .%s of %d bytes aligned to %d",
					name, i, a.kind, len(a.bytes), a.align, at[i], p.Type, p.Size, p.Align)
			}
		}
	}
	defer func() { w.d.onLaunch = nil }()
	exercise(w)
	var missing []string
	for name := range want {
		if !launched[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("exercise launches no %s: add a case for each kernel", strings.Join(missing, ", "))
	}
}

// TestEmptyAxesReadAndWriteNothing calls the kernels whose axis is empty: softmax and
// reductions over n = 0 (with 200 rows beside it: reading a row's first element would run past
// the empty buffer), top-k with k = 0 and attention with no keys. They must touch no memory
// outside their buffers (the emulated device fails the next read back if they do), and give
// zeros for the sum and, for attention, the CPU's zeros and +Inf log-sum-exp of a query that
// sees no key.
func TestEmptyAxesReadAndWriteNothing(t *testing.T) {
	w := newTwin(t)
	d := w.d
	empty := w.zeros(backend.F32, 0)
	d.Softmax(empty.d, empty.d, 1, 0, 200, false)
	d.SoftmaxGrad(empty.d, empty.d, empty.d, 1, 0, 200, true)
	sum := w.of(backend.F32, w.rnd(200, 1, 2, false))
	d.Reduce(backend.Sum, sum.d, empty.d, 1, 0, 200)
	if got := d.Download(sum.d).F32; slices.ContainsFunc(got, func(v float32) bool { return v != 0 }) {
		t.Errorf("Sum over an empty axis: %v, want zeros", got)
	}
	for _, op := range []backend.ReduceOp{backend.Max, backend.ArgMax} {
		dst := w.zeros(backend.F32, 200)
		if op == backend.ArgMax {
			dst = w.zeros(backend.I64, 200)
		}
		d.Reduce(op, dst.d, empty.d, 1, 0, 200) // package tensors refuses these; the kernel reads nothing
	}
	vals, idx := w.zeros(backend.F32, 0), w.zeros(backend.I64, 0)
	src := w.of(backend.F32, w.rnd(10, -1, 1, false))
	d.TopK(vals.d, idx.d, src.d, 2, 5, 1, 0, true)
	p := backend.AttentionParams{Batch: 1, Heads: 2, Tq: 3, Tk: 0, D: 4, Dv: 4, Scale: 0.5}
	st4 := func(b *backend.Buffer, n int) backend.Strided { return st(b, 0, 2*n*4, n*4, 4, 1) }
	q, out, lse := w.of(backend.F32, w.rnd(24, -1, 1, false)), w.zeros(backend.F32, 24), w.zeros(backend.F32, 6)
	w.c.Attention(st4(out.c, 3), lse.c, st4(q.c, 3), st4(empty.c, 0), st4(empty.c, 0), p)
	d.Attention(st4(out.d, 3), lse.d, st4(q.d, 3), st4(empty.d, 0), st4(empty.d, 0), p)
	w.same("Attention over no keys", out, 0)
	w.same("Attention's log-sum-exp over no keys", lse, 0)
	d.Synchronize()
}
