// Package bert is the BERT family of transformers ("model_type": "bert"; MiniLM, BERT-base,
// …): BertModel (Model), BertForSequenceClassification, BertForTokenClassification and
// BertForMaskedLM (its decoder tied to the word embeddings), with transformers' module and
// parameter names, so model.bert.encoder.layer[0].attention.self.query is
// m.Bert.Encoder.Layer[0].Attention.Self.Query and state dicts use transformers' keys.
//
// Importing the package registers "bert" with package transformers, whose FromPretrained builds
// these models from a snapshot folder:
//
//	m, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 3})
//	cls := m.(*bert.ForSequenceClassification)
//
// The layers are post-LayerNorm with the configuration's epsilon, the activation of hidden_act
// (exact GELU for "gelu"), dropout (hidden_dropout_prob, attention_probs_dropout_prob,
// classifier_dropout) in training mode only. Attention is one fused op with the attention mask
// inside it (tensors.ScaledDotProductAttention with a KeyMask): padding on either side costs no
// extra memory, and a padded sentence gets what it gets alone.
//
// Files:
//   - config.go: Config (BertConfig's keys and defaults) and its checks.
//   - layers.go: Embeddings, SelfAttention, SelfOutput, Attention, Intermediate, Layer, Encoder
//     and Pooler.
//   - model.go: Model (BertModel) and NewModel.
//   - heads.go: ForSequenceClassification, ForTokenClassification and ForMaskedLM.
//   - register.go: the family's registration with package transformers.
package bert
