// Package gpt2 is the GPT-2 family of transformers ("model_type": "gpt2"): GPT2Model (Model),
// GPT2LMHeadModel (LMHeadModel, its head tied to the token embedding, which Generate runs) and
// GPT2ForSequenceClassification, with transformers' module and parameter names, so
// model.transformer.h[0].attn.c_attn is m.Transformer.H[0].Attn.CAttn and state dicts use
// transformers' keys (Conv1D weights stored [in, out], as GPT-2's checkpoints hold them).
//
// Importing the package registers "gpt2" with package transformers, whose FromPretrained builds
// these models from a snapshot folder:
//
//	m, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM})
//	out, err := transformers.Generate(m, transformers.Inputs{InputIDs: ids, AttentionMask: mask},
//		transformers.GenerateOptions{MaxNewTokens: 20})
//
// The blocks are pre-LayerNorm with the configuration's epsilon, the activation of
// activation_function (the tanh approximation of GELU, "gelu_new", for GPT-2; any of
// transformers' names goaccel computes, an error naming it otherwise), learned positions up to
// n_positions (a longer input is an error naming it), dropout (embd_pdrop, attn_pdrop,
// resid_pdrop) in training mode only. Attention is one fused op with the causal and padding
// masks inside it, reading the heads of the packed projection in place; with a KV cache
// (Inputs.PastKeyValues) each new token attends over the cached keys and values instead.
//
// Files:
//   - config.go: Config (GPT2Config's keys and defaults) and its checks.
//   - layers.go: Conv1D, Attention, MLP and Block.
//   - model.go: Model (GPT2Model) and NewModel.
//   - heads.go: LMHeadModel and ForSequenceClassification.
//   - register.go: the family's registration with package transformers.
package gpt2
