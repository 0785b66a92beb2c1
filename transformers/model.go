package transformers

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// Model is a pretrained model of a registered family: an nn.Module (so optimizers, state dicts,
// nn.SetTraining, nn.MoveTo and accelerate's Prepare take it; Forward maps input ids [B, T] to
// the model's main output with every token attended) whose Run takes transformers' keyword
// arguments as Inputs.
type Model interface {
	nn.Module
	// Run is model(**inputs): it checks the inputs against the model (types, shapes, the
	// longest sequence) and returns an error naming what does not fit instead of panicking.
	Run(in Inputs) (Output, error)
	// PretrainedConfig returns the model's configuration (model.config).
	PretrainedConfig() Config
	// Architecture is the transformers class name written to config.json's "architectures".
	Architecture() string
}

// Inputs are the arguments of a forward pass, named as transformers names them.
type Inputs struct {
	// InputIDs are token ids [B, T], int64.
	InputIDs *tensors.Tensor
	// AttentionMask is [B, T]: 1 for real tokens, 0 for padding (any side, any pattern); nil
	// attends to every token.
	AttentionMask *tensors.Tensor
	// TokenTypeIDs are segment ids [B, T], int64 (nil: zeros), for families that have them.
	TokenTypeIDs *tensors.Tensor
	// PositionIDs are position ids [B, T] or [1, T], int64; nil takes the family's default
	// (0, 1, … for BERT; RoBERTa's count past the padding token, skipping pads).
	PositionIDs *tensors.Tensor
	// Labels make a task model compute its loss: class ids [B] (int64) or targets [B] / [B,
	// NumLabels] (float) for sequence classification, class ids [B, T] with -100 ignored for
	// token classification and masked language modelling.
	Labels *tensors.Tensor
	// OutputHiddenStates asks for the embeddings' output and every layer's in
	// Output.HiddenStates.
	OutputHiddenStates bool
	// PastKeyValues, for the decoder families (GPT-2, Llama), is the cache of the tokens before
	// InputIDs: the model attends over them and appends the new tokens' keys and values.
	// AttentionMask then covers the cached tokens and the new ones ([B, Len()+T]), and the
	// default positions continue from Len(). A cache that holds tokens takes one new token per
	// call. See KVCache; Generate uses one unless told not to.
	PastKeyValues *KVCache
	// LogitsToKeep, when positive, makes a language modelling head score only the last
	// LogitsToKeep positions (transformers' logits_to_keep): Logits are [B, LogitsToKeep, vocab].
	LogitsToKeep int

	unexpected []string // a batch's names BatchInputs has no field for (see Unexpected)
}

// Output is what a forward pass returns (transformers' ModelOutput classes in one struct):
// fields a model does not compute are nil.
type Output struct {
	// Loss is the mean loss over the batch when Inputs.Labels were given.
	Loss *tensors.Tensor
	// Logits are a head's scores: [B, NumLabels], [B, T, NumLabels] or [B, T, vocab].
	Logits *tensors.Tensor
	// LastHiddenState is the last layer's output [B, T, hidden].
	LastHiddenState *tensors.Tensor
	// PoolerOutput is the pooled first token [B, hidden] of models with a pooler.
	PoolerOutput *tensors.Tensor
	// HiddenStates are the embeddings' output then each layer's, with OutputHiddenStates.
	HiddenStates []*tensors.Tensor
}
