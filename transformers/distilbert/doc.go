// Package distilbert is the DistilBERT family of transformers ("model_type": "distilbert"):
// DistilBertModel (Model), DistilBertForSequenceClassification and
// DistilBertForTokenClassification under transformers' names (distilbert.transformer.layer.N.…),
// registered with package transformers when imported.
//
// DistilBERT has no token types and no pooler; its LayerNorms use epsilon 1e-12; the sequence
// classifier reads the first token through pre_classifier, ReLU and dropout
// (seq_classif_dropout). Attention is the fused op with the attention mask inside it.
//
// Files:
//   - config.go: Config (DistilBertConfig's keys and defaults) and its checks.
//   - model.go: Embeddings, MultiHeadSelfAttention, FFN, TransformerBlock, Model and NewModel.
//   - heads.go: ForSequenceClassification and ForTokenClassification.
//   - register.go: the family's registration with package transformers.
package distilbert
