// Package llama is the Llama family of transformers ("model_type": "llama"), and Mistral
// ("model_type": "mistral", Llama with a sliding window and no biases): LlamaModel (Model),
// LlamaForCausalLM (ForCausalLM, which Generate runs) and LlamaForSequenceClassification, with
// transformers' module and parameter names, so model.model.layers[0].self_attn.q_proj is
// m.Model.Layers[0].SelfAttn.QProj and state dicts use transformers' keys.
//
// Importing the package registers "llama" and "mistral" with package transformers, whose
// FromPretrained builds these models from a snapshot folder:
//
//	m, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM})
//	out, err := transformers.Generate(m, transformers.Inputs{InputIDs: ids, AttentionMask: mask},
//		transformers.GenerateOptions{MaxNewTokens: 20})
//
// The layers are pre-norm with RMSNorm (rms_norm_eps), the SwiGLU feed-forward network
// (down_proj(act(gate_proj(x))·up_proj(x)), act from hidden_act), rotary position embeddings
// with rope_theta and the rope types "default", "linear" and "llama3" (rope_parameters, or the
// rope_theta and rope_scaling of older files; another type is an error naming it),
// grouped-query attention with num_key_value_heads (which must divide num_attention_heads),
// head_dim when the configuration gives one, attention_bias and mlp_bias, and
// tie_word_embeddings for the language modelling head. Attention is one fused op with the
// causal and padding masks inside it; with a KV cache (Inputs.PastKeyValues) each new token
// attends over the cached keys and values, the query heads of a group reading their shared
// key/value head in place. The padding token's embedding (pad_token_id) passes no gradient
// back, as nn.Embedding's padding_idx.
//
// Mistral's sliding_window lets a token see only the last sliding_window tokens up to itself: a
// decoding step over the KV cache reads the last keys, and an input longer than the window is
// attended one query at a time over its window (exact, and slower than one fused call).
//
// Files:
//   - config.go: Config (LlamaConfig's and MistralConfig's keys and defaults) and its checks.
//   - rope.go: the rotary embedding: its settings, inverse frequencies, and the rotation.
//   - layers.go: Attention, MLP and DecoderLayer.
//   - model.go: Model (LlamaModel) and NewModel.
//   - heads.go: ForCausalLM and ForSequenceClassification.
//   - register.go: the families' registration with package transformers.
package llama
