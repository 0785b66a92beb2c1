package modeling

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
)

// Limits are what a model accepts: the longest sequence (max_position_embeddings less the
// positions a family skips, RoBERTa's padding_idx+1), whether it has token types, and whether
// it is a decoder that takes a KV cache (Inputs.PastKeyValues, LogitsToKeep).
type Limits struct {
	Model         string // the architecture, for messages
	MaxLength     int
	MaxLengthNote string // how MaxLength follows from the configuration
	TokenTypes    bool
	Decoder       bool
}

// CheckInputs checks in against the model: no tensor of a batch that BatchInputs found no input
// for, int64 ids [B, T] with T (and the tokens of a KV cache) within the model's positions, token
// types and positions of the same [B, T], and a mask [B, T], or [B, cached+T] with a cache.
func CheckInputs(in transformers.Inputs, l Limits) error {
	if u := in.Unexpected(); len(u) > 0 {
		return fmt.Errorf("%s: the batch holds %q, which the model does not take (its inputs are input_ids, attention_mask, token_type_ids, position_ids and labels): remove those columns from the dataset before collating (datasets' RemoveColumns, or Map's RemoveColumns)", l.Model, u)
	}
	ids := in.InputIDs
	if ids == nil {
		return fmt.Errorf("%s: Inputs.InputIDs is nil: give token ids [batch, sequence] (int64)", l.Model)
	}
	if ids.Dim() != 2 || ids.DType() != tensors.Int64 || ids.Numel() == 0 {
		return fmt.Errorf("%s: Inputs.InputIDs must be non-empty int64 token ids [batch, sequence], have %s %v", l.Model, ids.DType(), ids.Shape())
	}
	b, t := ids.Size(0), ids.Size(1)
	past := 0
	if !l.Decoder && (in.PastKeyValues != nil || in.LogitsToKeep != 0) {
		return fmt.Errorf("%s: Inputs.PastKeyValues and LogitsToKeep are for decoders (GPT-2, Llama); leave them unset", l.Model)
	}
	if c := in.PastKeyValues; c != nil {
		past = c.Len()
		if c.Batch() != b {
			return fmt.Errorf("%s: Inputs.PastKeyValues holds %d rows, InputIDs has %d", l.Model, c.Batch(), b)
		}
		if past > 0 && t > 1 {
			return fmt.Errorf("%s: Inputs.PastKeyValues already holds %d tokens: give one new token per call (InputIDs has %d)", l.Model, past, t)
		}
	}
	if in.LogitsToKeep < 0 {
		return fmt.Errorf("%s: Inputs.LogitsToKeep must not be negative, have %d", l.Model, in.LogitsToKeep)
	}
	if past+t > l.MaxLength {
		if past > 0 {
			return fmt.Errorf("%s: %d cached tokens and %d new ones are more than the %d the model has positions for (%s)", l.Model, past, t, l.MaxLength, l.MaxLengthNote)
		}
		return fmt.Errorf("%s: a sequence of %d tokens is longer than the %d the model has positions for (%s): truncate the input to %d tokens", l.Model, t, l.MaxLength, l.MaxLengthNote, l.MaxLength)
	}
	same := func(name string, x *tensors.Tensor, int64Only bool, shapes ...[]int) error {
		if x == nil {
			return nil
		}
		ok := false
		for _, s := range shapes {
			ok = ok || sameShape(x.Shape(), s)
		}
		var want []string
		for _, s := range shapes {
			want = append(want, fmt.Sprint(s))
		}
		if !ok {
			return fmt.Errorf("%s: Inputs.%s must be %s to match InputIDs %v, have %v", l.Model, name, strings.Join(want, " or "), ids.Shape(), x.Shape())
		}
		if int64Only && x.DType() != tensors.Int64 {
			return fmt.Errorf("%s: Inputs.%s must be int64, have %s", l.Model, name, x.DType())
		}
		if x.Device() != ids.Device() {
			return fmt.Errorf("%s: Inputs.%s is on %s and InputIDs on %s: move them to one device", l.Model, name, x.Device(), ids.Device())
		}
		return nil
	}
	if err := same("AttentionMask", in.AttentionMask, false, []int{b, past + t}); err != nil {
		return err
	}
	if in.TokenTypeIDs != nil && !l.TokenTypes {
		return fmt.Errorf("%s: the model has no token types; leave Inputs.TokenTypeIDs nil", l.Model)
	}
	if err := same("TokenTypeIDs", in.TokenTypeIDs, true, []int{b, t}); err != nil {
		return err
	}
	return same("PositionIDs", in.PositionIDs, true, []int{b, t}, []int{1, t})
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Guard turns a panic of package tensors or nn inside a forward pass (an op's message, such as a
// token id past the vocabulary) into *err, so that Run returns it; other panics go on.
func Guard(model string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if s, ok := r.(string); ok && (strings.HasPrefix(s, "tensors: ") || strings.HasPrefix(s, "nn: ")) {
		*err = fmt.Errorf("%s: %s", model, s)
		return
	}
	panic(r)
}
