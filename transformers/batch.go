package transformers

import (
	"github.com/goaccel/goaccel/data"
)

// BatchInputs is Go's model(**batch): the tensors of a named batch (a data.Loader's Named, from
// datasets' padding collator) as the Inputs of the same names, input_ids, attention_mask,
// token_type_ids, position_ids and labels:
//
//	out, err := model.Run(transformers.BatchInputs(loader.Named()))
//
// A tensor under any other name (special_tokens_mask, a numeric column left in the dataset, a
// misspelt "attention_masks") is not dropped: Run returns an error naming it, as model(**batch)
// raises a TypeError for an unexpected keyword argument, rather than run without it.
func BatchInputs(b *data.Batch) Inputs {
	var in Inputs
	if b == nil {
		return in
	}
	for _, name := range b.Names() {
		t := b.Get(name)
		switch name {
		case "input_ids":
			in.InputIDs = t
		case "attention_mask":
			in.AttentionMask = t
		case "token_type_ids":
			in.TokenTypeIDs = t
		case "position_ids":
			in.PositionIDs = t
		case "labels":
			in.Labels = t
		default:
			in.unexpected = append(in.unexpected, name)
		}
	}
	return in
}

// Unexpected returns the names of the batch's tensors that BatchInputs found no input for; the
// families' Run fails on Inputs that have any.
func (in Inputs) Unexpected() []string { return append([]string(nil), in.unexpected...) }
