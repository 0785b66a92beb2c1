// Package nn holds goaccel's neural-network layers, losses, state dicts and safetensors I/O, modelled
// on torch.nn.
//
// A model is any value with Forward, Parameters and NamedParameters. The built-in layers compose
// with Sequential:
//
//	model := nn.NewSequential(nn.NewLinear(784, 128), nn.ReLU{}, nn.NewLinear(128, 10))
//	loss := nn.CrossEntropy(model.Forward(x), y)
//	loss.Backward()
//
// and a struct defined in a notebook cell is a Module once it has the three methods (see the
// Module example). Parameters are initialised as PyTorch initialises them, from the tensors
// package's process-wide generator (tensors.ManualSeed makes them reproducible). StateDict names
// parameters as PyTorch does ("0.weight", "fc1.bias"), and SaveSafetensors writes files that
// PyTorch's safetensors loader reads.
//
// GPT, TransformerBlock, CausalSelfAttention and MLP are nanoGPT's model with its parameter
// names (so its checkpoints load with LoadStateDict): NewGPT ties the output layer to the token
// embedding, and Generate samples continuations with a temperature and top-k. Intermediate
// tensors a layer makes are released as soon as it is done with them (tensors.Release), so a
// training step reuses the same memory step after step.
//
// Layers run on the device of their parameters: nn.MoveTo(model, tensors.CUDA(0)) moves a model
// in place (model.to("cuda:0")), and its inputs must be on the same device.
package nn
