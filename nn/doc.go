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
//
// BatchNorm1d, BatchNorm2d and SyncBatchNorm keep running statistics as buffers (Buffered,
// NamedBuffersOf): state dicts, safetensors files and MoveTo carry them with the parameters, under
// PyTorch's names ("1.running_mean", "bn1.num_batches_tracked"); a model struct defined in a cell
// needs no method for them (its layers' buffers are found through its fields). nn.SetTraining(m,
// false) switches them to the running statistics. ConvertSyncBatchNorm is PyTorch's
// convert_sync_batchnorm: a prepared model (package accelerate) then normalises over the batch of
// every process.
//
// Files:
//   - activation.go: ReLU, GELU, Tanh, Flatten and Dropout layers.
//   - batchnorm.go: BatchNormConfig, BatchNorm1d, BatchNorm2d, SyncBatchNorm, Group,
//     ConvertSyncBatchNorm and SetSyncGroup.
//   - buffers.go: Buffered, NamedBuffersOf and PrefixedBuffers: buffers of layers and of models
//     found through their fields.
//   - checkpoint.go: Checkpoint and Checkpointed (activation checkpointing of a module), and
//     GradientCheckpointer.
//   - clip.go: ClipGradNorm, ClipGradValue and Grads.
//   - conv.go: Conv2d and MaxPool2d layers.
//   - device.go: MoveTo, a model's parameters moved to a device in place.
//   - embedding.go: Embedding.
//   - gpt.go: GPTConfig, GPT (nanoGPT's model), GenerateOptions and Generate.
//   - init.go: PyTorch's default initialisation bounds for weights and biases.
//   - layernorm.go: LayerNorm.
//   - linear.go: Linear, NewLinear and NewLinearNoBias.
//   - loss.go: CrossEntropy, NLLLoss, NLLLossSum, MSE, and CrossEntropyLoss and MSELoss as
//     modules.
//   - module.go: Module, NamedParameter, Trainer, SetTraining, IsTraining,
//     Prefixed, ParametersOf and NumParameters.
//   - norm.go: GroupNorm and RMSNorm.
//   - pool.go: AvgPool2d and AdaptiveAvgPool2d layers.
//   - safetensors.go: SaveSafetensors, WriteSafetensors, EncodeSafetensors,
//     LoadSafetensors, LoadSafetensorsMetadata, ReadSafetensors and
//     DecodeSafetensors (on nn/internal/safetensors).
//   - sequential.go: Sequential.
//   - state.go: StateDict, LoadStateDict and LoadStateDictNonStrict (parameters and buffers).
//   - transformer.go: MLP, CausalSelfAttention and TransformerBlock.
//   - walk.go: Modules, every module of a model (model.modules()).
package nn
