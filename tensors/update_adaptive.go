package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// The fused updates of the optimizers with per-element rates. Their arithmetic is float32 in
// PyTorch's order of operations, the constants rounded to float32 as written.

// AdadeltaStepConfig is one parameter's constants for AdadeltaStep (torch.optim.Adadelta).
type AdadeltaStepConfig struct{ LR, Rho, Eps, WeightDecay float64 }

// AdadeltaStep applies one Adadelta update to every params[i] from grads[i], with its running
// averages squareAvg[i] and accDelta[i] (float32 tensors of the parameter's shape on its device,
// updated in place):
//
//	g ← g + wd·w;  s ← ρ·s + (1−ρ)·g²;  d ← √(a+ε)/√(s+ε)·g;  a ← ρ·a + (1−ρ)·d²;  w ← w − lr·d
func AdadeltaStep(params, grads, squareAvg, accDelta []*Tensor, cfg []AdadeltaStepConfig) {
	defer opSpanOf("AdadeltaStep", params).End()
	checkLists("AdadeltaStep", params, grads, squareAvg, accDelta)
	checkConfigs("AdadeltaStep", len(cfg), len(params))
	u := getUpdate()
	defer putUpdate(u)
	for u.next(params) {
		g, s, a := u.vecs(&u.g, "grad", grads, false), u.vecs(&u.m, "square_avg", squareAvg, true), u.vecs(&u.v, "acc_delta", accDelta, true)
		sc := u.adadelta[:0]
		for _, i := range u.idx {
			c := cfg[i]
			sc = append(sc, backend.AdadeltaScalars{LR: float32(c.LR), Rho: float32(c.Rho), OneMinusRho: float32(1 - c.Rho),
				Eps: float32(c.Eps), WeightDecay: float32(c.WeightDecay)})
		}
		u.adadelta = sc
		u.be.AdadeltaStep(u.w, g, s, a, sc)
		u.finish()
	}
}

// RMSpropStepConfig is one parameter's constants for RMSpropStep (torch.optim.RMSprop).
type RMSpropStepConfig struct {
	LR, Alpha, Eps, WeightDecay, Momentum float64
	Centered                              bool
}

// RMSpropStep applies one RMSprop update to every params[i] from grads[i], with its running
// average of squares squareAvg[i], its momentum buffer momentum[i] (nil without momentum) and its
// running average gradAvg[i] (nil unless centered), all updated in place:
//
//	g ← g + wd·w;  s ← α·s + (1−α)·g²;  r ← √s + ε, or, centered, m ← α·m + (1−α)·g and r ← √(s−m²) + ε;
//	b ← μ·b + g/r and w ← w − lr·b with momentum, else w ← w − lr·g/r
func RMSpropStep(params, grads, squareAvg, momentum, gradAvg []*Tensor, cfg []RMSpropStepConfig) {
	defer opSpanOf("RMSpropStep", params).End()
	checkLists("RMSpropStep", params, grads, squareAvg, momentum, gradAvg)
	checkConfigs("RMSpropStep", len(cfg), len(params))
	for i, c := range cfg {
		if (c.Momentum > 0) != (momentum[i] != nil) || c.Centered != (gradAvg[i] != nil) {
			panic(fmt.Sprintf("tensors: RMSpropStep: parameter %d: give a momentum buffer exactly when Momentum > 0 and a gradient average exactly when Centered", i))
		}
	}
	u := getUpdate()
	defer putUpdate(u)
	for u.next(params) {
		g, s := u.vecs(&u.g, "grad", grads, false), u.vecs(&u.m, "square_avg", squareAvg, true)
		b, m := u.vecs(&u.v, "momentum_buffer", momentum, true), u.vecs(&u.x, "grad_avg", gradAvg, true)
		sc := u.rmsprop[:0]
		for _, i := range u.idx {
			c := cfg[i]
			sc = append(sc, backend.RMSpropScalars{LR: float32(c.LR), Alpha: float32(c.Alpha), OneMinusAlpha: float32(1 - c.Alpha),
				Eps: float32(c.Eps), WeightDecay: float32(c.WeightDecay), Momentum: float32(c.Momentum), Centered: c.Centered})
		}
		u.rmsprop = sc
		u.be.RMSpropStep(u.w, g, s, b, m, sc)
		u.finish()
	}
}

// AdagradStepConfig is one parameter's constants for AdagradStep (torch.optim.Adagrad): LR is
// the step's rate, lr/(1 + (step−1)·lr_decay).
type AdagradStepConfig struct{ LR, Eps, WeightDecay float64 }

// AdagradStep applies one Adagrad update to every params[i] from grads[i], with its sum of
// squared gradients sum[i] (updated in place):
//
//	g ← g + wd·w;  s ← s + g²;  w ← w − lr·g/(√s + ε)
func AdagradStep(params, grads, sum []*Tensor, cfg []AdagradStepConfig) {
	defer opSpanOf("AdagradStep", params).End()
	checkLists("AdagradStep", params, grads, sum)
	checkConfigs("AdagradStep", len(cfg), len(params))
	u := getUpdate()
	defer putUpdate(u)
	for u.next(params) {
		g, s := u.vecs(&u.g, "grad", grads, false), u.vecs(&u.m, "sum", sum, true)
		sc := u.adagrad[:0]
		for _, i := range u.idx {
			c := cfg[i]
			sc = append(sc, backend.AdagradScalars{CLR: float32(c.LR), Eps: float32(c.Eps), WeightDecay: float32(c.WeightDecay)})
		}
		u.adagrad = sc
		u.be.AdagradStep(u.w, g, s, sc)
		u.finish()
	}
}

func checkConfigs(op string, n, params int) {
	if n != params {
		panic(fmt.Sprintf("tensors: %s: %d configs for %d parameters", op, n, params))
	}
}
