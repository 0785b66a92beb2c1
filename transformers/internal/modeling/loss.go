package modeling

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
)

// SequenceClassificationLoss is the loss of logits [B, NumLabels] against labels, by the
// configuration's problem type or, when it has none, as transformers picks one: regression
// (MSE) for one label, single-label classification (cross entropy) for int64 labels [B],
// multi-label classification (binary cross entropy with logits) for float labels [B,
// NumLabels].
func SequenceClassificationLoss(cfg *transformers.BaseConfig, logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
	n := cfg.NumLabels()
	problem := cfg.ProblemType
	if problem == "" {
		switch {
		case n == 1:
			problem = "regression"
		case labels.DType() == tensors.Int64:
			problem = "single_label_classification"
		default:
			problem = "multi_label_classification"
		}
	}
	b := logits.Size(0)
	switch problem {
	case "regression":
		y := floatLabels(labels, logits.DType())
		if n == 1 {
			if y.Numel() != b {
				return nil, fmt.Errorf("regression labels must be [%d] (one target per row), have %v", b, labels.Shape())
			}
			return tensors.MSE(logits.Reshape(b), y.Reshape(b)), nil
		}
		if !sameShape(y.Shape(), logits.Shape()) {
			return nil, fmt.Errorf("regression labels must be %v, have %v", logits.Shape(), labels.Shape())
		}
		return tensors.MSE(logits, y), nil
	case "single_label_classification":
		if labels.DType() != tensors.Int64 || labels.Numel() != b {
			return nil, fmt.Errorf("single-label classification needs int64 class ids [%d], have %s %v", b, labels.DType(), labels.Shape())
		}
		return classLoss(n, func() *tensors.Tensor { return tensors.CrossEntropy(logits.Reshape(b, n), labels.Reshape(b)) })
	case "multi_label_classification":
		if !sameShape(labels.Shape(), logits.Shape()) {
			return nil, fmt.Errorf("multi-label classification needs 0/1 targets %v, have %v", logits.Shape(), labels.Shape())
		}
		return bceWithLogits(logits, floatLabels(labels, logits.DType())), nil
	}
	return nil, fmt.Errorf("problem_type %q is not one of regression, single_label_classification, multi_label_classification", problem)
}

// classLoss returns loss(), turning CrossEntropy's panic on a class id outside the n classes
// into an error that says where n comes from: the usual cause is a model loaded with fewer
// labels than the dataset's label set has (num_labels defaults to 2).
func classLoss(n int, loss func() *tensors.Tensor) (l *tensors.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(string)
			if !ok || !strings.HasPrefix(s, "tensors: CrossEntropy: target ") {
				panic(r)
			}
			err = fmt.Errorf("%s: the model has %d labels (num_labels) and the labels are class ids in [0, %d): load the model with the dataset's label set (transformers.Options{NumLabels: n} or ID2Label, num_labels in config.json)", strings.TrimPrefix(s, "tensors: "), n, n)
		}
	}()
	return loss(), nil
}

func floatLabels(labels *tensors.Tensor, dt tensors.DType) *tensors.Tensor {
	if labels.DType() == dt {
		return labels
	}
	return labels.AsType(dt)
}

// bceWithLogits is torch's BCEWithLogitsLoss (mean): max(x, 0) − x·y + log(1 + e^−|x|).
func bceWithLogits(x, y *tensors.Tensor) *tensors.Tensor {
	return x.ReLU().Sub(x.Mul(y)).Add(x.Abs().Neg().Exp().AddScalar(1).Log()).Mean()
}

// TokenLoss is the cross entropy of per-token logits [B, T, C] against class ids [B, T], -100
// ignored (token classification and masked language modelling).
func TokenLoss(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
	b, t, c := logits.Size(0), logits.Size(1), logits.Size(2)
	if labels.DType() != tensors.Int64 || !sameShape(labels.Shape(), []int{b, t}) {
		return nil, fmt.Errorf("token labels must be int64 class ids [%d, %d] (-100 for tokens without one), have %s %v", b, t, labels.DType(), labels.Shape())
	}
	return tensors.CrossEntropyWith(logits.Reshape(b*t, c), labels.Reshape(b*t), tensors.DefaultCrossEntropyOptions()), nil
}

// WithLoss sets out.Loss to the loss of out.Logits against labels, when labels are given.
func WithLoss(model string, out transformers.Output, labels *tensors.Tensor, loss func(logits, labels *tensors.Tensor) (*tensors.Tensor, error)) (transformers.Output, error) {
	if labels == nil {
		return out, nil
	}
	if labels.Device() != out.Logits.Device() {
		return out, fmt.Errorf("%s: Inputs.Labels is on %s and the model on %s", model, labels.Device(), out.Logits.Device())
	}
	l, err := loss(out.Logits, labels)
	if err != nil {
		return out, fmt.Errorf("%s: %w", model, err)
	}
	out.Loss = l
	return out, nil
}
