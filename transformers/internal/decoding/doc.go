// Package decoding holds what the decoder families (transformers/gpt2, transformers/llama)
// share: causal self-attention through the fused kernel with a key padding mask, over a KV
// cache, with grouped-query heads and an optional sliding window; the last-token pooling of
// their sequence classifiers; their causal language modelling loss; default positions.
//
// Files:
//   - attention.go: AttentionOptions and Attention (prompt and cached decoding steps).
//   - heads.go: LastTokens and PoolLast (the last non-pad token of each row), CausalLMLoss and
//     KeepLast (LogitsToKeep).
//   - positions.go: Positions, the default position ids after a cache.
//   - embedding.go: Embed, a lookup whose padding row passes no gradient (padding_idx).
package decoding
