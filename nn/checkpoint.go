package nn

import "github.com/goaccel/goaccel/tensors"

// Checkpointed is a module whose Forward keeps no intermediate results for the backward pass:
// the backward pass runs the wrapped module's Forward again (tensors.Checkpoint, PyTorch's
// activation checkpointing). Its parameters, names and buffers are the wrapped module's, so a
// state dict is the same with or without it.
type Checkpointed struct {
	Module Module
}

// Checkpoint wraps m so that its activations are recomputed in the backward pass instead of
// kept: a model of n checkpointed blocks holds each block's input and one block's activations
// at a time, for the price of one more forward pass of each block.
//
//	blocks := nn.NewSequential(nn.Checkpoint(block1), nn.Checkpoint(block2))
func Checkpoint(m Module) *Checkpointed { return &Checkpointed{Module: m} }

// Forward runs the wrapped module through tensors.Checkpoint.
func (c *Checkpointed) Forward(x *tensors.Tensor) *tensors.Tensor {
	return tensors.Checkpoint(c.Module.Forward, x, c.Module.Parameters())
}

// Parameters returns the wrapped module's parameters.
func (c *Checkpointed) Parameters() []*tensors.Tensor { return c.Module.Parameters() }

// NamedParameters returns the wrapped module's named parameters, under their own names.
func (c *Checkpointed) NamedParameters() []NamedParameter { return c.Module.NamedParameters() }

// Train passes the mode on to the wrapped module.
func (c *Checkpointed) Train(on bool) { SetTraining(c.Module, on) }

// Training reports the wrapped module's mode.
func (c *Checkpointed) Training() bool { return IsTraining(c.Module) }

// GradientCheckpointer is implemented by models whose blocks can be checkpointed in place
// (transformers' gradient_checkpointing_enable): package accelerate's FSDP plugin turns it on
// with ActivationCheckpointing.
type GradientCheckpointer interface {
	SetGradientCheckpointing(on bool)
}
