package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// CrossEntropy is the mean cross-entropy between logits [N, C] and int64 class targets [N]
// (F.cross_entropy with ignore_index -100).
func CrossEntropy(logits, target *tensors.Tensor) *tensors.Tensor {
	return tensors.CrossEntropy(logits, target)
}

// NLLLoss is the mean negative log-likelihood of int64 class targets [N] under log-probabilities
// logProbs [N, C] (F.nll_loss: the loss of a model whose output ends in LogSoftmax, as PyTorch's
// MNIST example's). NLLLossSum is its sum.
func NLLLoss(logProbs, target *tensors.Tensor) *tensors.Tensor {
	s := nllTerms(logProbs, target)
	defer s.Release()
	return s.Mean()
}

// NLLLossSum is the summed negative log-likelihood (F.nll_loss with reduction="sum").
func NLLLossSum(logProbs, target *tensors.Tensor) *tensors.Tensor {
	s := nllTerms(logProbs, target)
	defer s.Release()
	return s.Sum()
}

// nllTerms returns −logProbs[i, target[i]] for each row i.
func nllTerms(logProbs, target *tensors.Tensor) *tensors.Tensor {
	if logProbs.Dim() != 2 || target.Dim() != 1 || target.Size(0) != logProbs.Size(0) || target.DType() != tensors.Int64 {
		panic(fmt.Sprintf("nn: NLLLoss: log-probabilities %v and int64 targets %v; want [N, C] and [N]", logProbs.Shape(), target.Shape()))
	}
	idx := target.Unsqueeze(1)
	picked := logProbs.Gather(1, idx)
	idx.Release()
	defer picked.Release()
	return picked.Neg()
}

// MSE is the mean squared error between pred and target (F.mse_loss).
func MSE(pred, target *tensors.Tensor) *tensors.Tensor { return tensors.MSE(pred, target) }

// CrossEntropyLoss is the configurable form of CrossEntropy (torch.nn.CrossEntropyLoss).
type CrossEntropyLoss struct {
	IgnoreIndex    int64   // targets equal to it do not count; -100 by default
	LabelSmoothing float64 // in [0, 1]
	Reduction      string  // "mean" (default), "sum" or "none"
}

// NewCrossEntropyLoss returns PyTorch's defaults: ignore index -100, no label smoothing, mean.
func NewCrossEntropyLoss() *CrossEntropyLoss {
	o := tensors.DefaultCrossEntropyOptions()
	return &CrossEntropyLoss{IgnoreIndex: o.IgnoreIndex, LabelSmoothing: o.LabelSmoothing, Reduction: o.Reduction}
}

// Forward returns the loss of logits [N, C] against int64 targets [N].
func (l *CrossEntropyLoss) Forward(logits, target *tensors.Tensor) *tensors.Tensor {
	red := l.Reduction
	if red == "" {
		red = "mean"
	}
	checkReduction("CrossEntropyLoss", red)
	if l.LabelSmoothing < 0 || l.LabelSmoothing > 1 {
		panic(fmt.Sprintf("nn: CrossEntropyLoss: LabelSmoothing %v must be in [0, 1]", l.LabelSmoothing))
	}
	return tensors.CrossEntropyWith(logits, target, tensors.CrossEntropyOptions{
		IgnoreIndex: l.IgnoreIndex, LabelSmoothing: l.LabelSmoothing, Reduction: red})
}

// MSELoss is the configurable form of MSE (torch.nn.MSELoss).
type MSELoss struct {
	Reduction string // "mean" (default), "sum" or "none"
}

// Forward returns the squared error of pred against target, reduced as configured.
func (l MSELoss) Forward(pred, target *tensors.Tensor) *tensors.Tensor {
	switch l.Reduction {
	case "", "mean":
		return tensors.MSE(pred, target)
	case "sum":
		d := pred.Sub(target)
		return d.Mul(d).Sum()
	case "none":
		d := pred.Sub(target)
		return d.Mul(d)
	}
	checkReduction("MSELoss", l.Reduction)
	return nil
}

func checkReduction(op, r string) {
	switch r {
	case "mean", "sum", "none":
		return
	}
	panic(fmt.Sprintf("nn: %s: Reduction %q is not one of \"mean\", \"sum\", \"none\"", op, r))
}
