// Package modeling holds what the transformers model families share: layers initialised as
// transformers' _init_weights does, activations by config name, dropout in training mode, the
// checks of a forward pass's inputs, the heads' losses and the default position ids.
//
// Files:
//   - modeling.go: NewLinear, NewEmbedding, NewLayerNorm, Activation, Dropout, Positions,
//     Apply, Prefix and CheckPositive.
//   - inputs.go: Limits and CheckInputs, the checks of Inputs against a model, and Guard, which turns a
//     panic of an op into Run's error.
//   - loss.go: SequenceClassificationLoss and TokenLoss (transformers' problem types), WithLoss.
package modeling
