// Package roberta is the RoBERTa family of transformers ("model_type": "roberta"):
// RobertaModel (Model, BERT's encoder under the same names), RobertaForSequenceClassification
// (its ClassificationHead: dense, tanh, out_proj on the first token) and
// RobertaForTokenClassification, registered with package transformers when imported.
//
// RoBERTa's positions start past the padding token and skip pads, as transformers'
// create_position_ids_from_input_ids computes them (so left padding gives each real token the
// position it has alone), which leaves max_position_embeddings − padding_idx − 1 positions for
// a sequence.
//
// Files:
//   - roberta.go: Config, Model, ClassificationHead, ForSequenceClassification,
//     ForTokenClassification and the family's registration.
package roberta
