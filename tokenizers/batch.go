package tokenizers

import (
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
	"github.com/goaccel/goaccel/tokenizers/internal/pipeline"
)

// Padding says how Batch pads (transformers' padding argument).
type Padding int

// The padding strategies.
const (
	NoPadding    Padding = iota // padding=False
	PadLongest                  // padding=True or "longest": to the longest of the batch
	PadMaxLength                // padding="max_length": to MaxLength
)

// Truncation says how Batch truncates (transformers' truncation argument).
type Truncation int

// The truncation strategies.
const (
	NoTruncation Truncation = iota // truncation=False (but see Options.MaxLength)
	LongestFirst                   // truncation=True or "longest_first"
	OnlyFirst                      // "only_first": only the first text of a pair
	OnlySecond                     // "only_second": only the second text of a pair
)

// Options are the arguments of transformers' tokenizer(texts, …) call.
type Options struct {
	Padding    Padding
	Truncation Truncation
	// MaxLength is the length to truncate or pad to; 0 means the tokenizer's
	// ModelMaxLength. As in transformers, MaxLength with neither padding nor
	// truncation asked for truncates LongestFirst.
	MaxLength int
	// PadToMultipleOf rounds the padded length up to a multiple (8 suits
	// tensor cores).
	PadToMultipleOf int
	// PaddingSide overrides the tokenizer's ("left" or "right").
	PaddingSide string
	// Stride is the overlap of the windows truncation cuts off (they are
	// dropped by Batch; EncodeBatch's Overflowing keeps them).
	Stride int
	// NoSpecialTokens leaves out [CLS], <s> and the other special tokens
	// (add_special_tokens=False).
	NoSpecialTokens bool
}

// BatchEncoding is what transformers' tokenizer(texts, …) returns: a row per
// text. Rows have different lengths unless padded.
type BatchEncoding struct {
	InputIDs      [][]int64
	AttentionMask [][]int64
	TokenTypeIDs  [][]int64
	// Encodings are the full encodings (tokens, offsets, word ids…).
	Encodings []*Encoding
}

// veryLarge is transformers' LARGE_INTEGER: a model_max_length above it
// means "no limit".
const veryLarge = 1 << 62

// Batch encodes texts as transformers' tokenizer(texts, padding=…,
// truncation=…, max_length=…, pad_to_multiple_of=…) does.
func (t *Tokenizer) Batch(texts []string, opts Options) (*BatchEncoding, error) {
	return t.batch(texts, nil, opts)
}

// BatchPairs encodes pairs of texts (firsts[i], seconds[i]) as
// tokenizer(firsts, seconds, …) does.
func (t *Tokenizer) BatchPairs(firsts, seconds []string, opts Options) (*BatchEncoding, error) {
	if len(firsts) != len(seconds) {
		return nil, fmt.Errorf("tokenizers: BatchPairs: %d first texts but %d second texts", len(firsts), len(seconds))
	}
	return t.batch(firsts, seconds, opts)
}

func (t *Tokenizer) batch(texts, pairs []string, opts Options) (*BatchEncoding, error) {
	trunc, pad, err := t.strategies(opts)
	if err != nil {
		return nil, err
	}
	encs, err := t.encodeAll(len(texts), func(i int) (*encoding.Encoding, error) {
		var pair *string
		if pairs != nil {
			pair = &pairs[i]
		}
		return t.p.Encode(texts[i], pair, !opts.NoSpecialTokens, trunc, pad)
	})
	if err != nil {
		return nil, err
	}
	if pad != nil {
		if err := pipeline.PadEncodings(encs, pad); err != nil {
			return nil, err
		}
	}
	b := &BatchEncoding{}
	for _, e := range encs {
		b.InputIDs = append(b.InputIDs, to64(e.IDs))
		b.AttentionMask = append(b.AttentionMask, to64(e.Attention))
		b.TokenTypeIDs = append(b.TokenTypeIDs, to64(e.TypeIDs))
		e.Overflowing = nil
		b.Encodings = append(b.Encodings, fromInternal(e))
	}
	return b, nil
}

// strategies turns Options into tokenizers' truncation and padding
// parameters as transformers' _get_padding_truncation_strategies and
// set_truncation_and_padding do.
func (t *Tokenizer) strategies(o Options) (*pipeline.Truncation, *pipeline.Padding, error) {
	padding, truncation, maxLen := o.Padding, o.Truncation, o.MaxLength
	if maxLen < 0 || o.PadToMultipleOf < 0 || o.Stride < 0 {
		return nil, nil, fmt.Errorf("tokenizers: negative MaxLength, PadToMultipleOf or Stride in %+v", o)
	}
	if maxLen > 0 && padding == NoPadding && truncation == NoTruncation {
		truncation = LongestFirst
	}
	modelMax := t.ModelMaxLength
	if modelMax <= 0 {
		modelMax = veryLarge + 1
	}
	if maxLen == 0 {
		if padding == PadMaxLength {
			if modelMax > veryLarge {
				padding = NoPadding
			} else {
				maxLen = modelMax
			}
		}
		if truncation != NoTruncation {
			if modelMax > veryLarge {
				truncation = NoTruncation
			} else {
				maxLen = modelMax
			}
		}
	}
	padID, havePad := t.p.TokenToID(t.PadToken)
	if padding != NoPadding && (t.PadToken == "" || !havePad) {
		return nil, nil, errors.New("tokenizers: asking to pad but the tokenizer has no padding token: set Tokenizer.PadToken (to its EOS token, say)")
	}
	if truncation != NoTruncation && padding != NoPadding && o.PadToMultipleOf > 0 && maxLen > 0 && maxLen%o.PadToMultipleOf != 0 {
		return nil, nil, fmt.Errorf("tokenizers: truncation and padding are both on but the truncation length (%d) is not a multiple of PadToMultipleOf (%d)", maxLen, o.PadToMultipleOf)
	}
	var trunc *pipeline.Truncation
	if truncation != NoTruncation {
		dir, err := encoding.ParseDirection(t.TruncationSide)
		if err != nil {
			return nil, nil, fmt.Errorf("tokenizers: TruncationSide: %w", err)
		}
		trunc = &pipeline.Truncation{MaxLength: maxLen, Stride: o.Stride, Direction: dir,
			Strategy: [...]pipeline.Strategy{LongestFirst: pipeline.LongestFirst, OnlyFirst: pipeline.OnlyFirst, OnlySecond: pipeline.OnlySecond}[truncation]}
	}
	var pad *pipeline.Padding
	if padding != NoPadding {
		side := o.PaddingSide
		if side == "" {
			side = t.PaddingSide
		}
		dir, err := encoding.ParseDirection(side)
		if err != nil {
			return nil, nil, fmt.Errorf("tokenizers: PaddingSide: %w", err)
		}
		pad = &pipeline.Padding{Direction: dir, PadID: padID, PadTypeID: t.PadTokenTypeID, PadToken: t.PadToken,
			PadToMultipleOf: o.PadToMultipleOf}
		if padding == PadMaxLength {
			pad.Fixed, pad.Length = true, maxLen
		}
	}
	return trunc, pad, nil
}

func to64(x []int) []int64 {
	out := make([]int64, len(x))
	for i, v := range x {
		out[i] = int64(v)
	}
	return out
}

// rows makes one int64 tensor [len(rows), width] of equal-length rows.
func rows(name string, r [][]int64) (*tensors.Tensor, error) {
	if len(r) == 0 {
		return nil, fmt.Errorf("tokenizers: %s: the batch is empty", name)
	}
	width := len(r[0])
	flat := make([]int64, 0, len(r)*width)
	for i, row := range r {
		if len(row) != width {
			return nil, fmt.Errorf("tokenizers: %s: row %d has %d tokens but row 0 has %d: pad the batch (Options{Padding: PadLongest}) to make a tensor", name, i, len(row), width)
		}
		flat = append(flat, row...)
	}
	return tensors.FromInt64(flat, len(r), width), nil
}

// InputIDsTensor returns the input ids as an int64 tensor [batch, length].
func (b *BatchEncoding) InputIDsTensor() (*tensors.Tensor, error) {
	return rows("input_ids", b.InputIDs)
}

// AttentionMaskTensor returns the attention mask as an int64 tensor [batch, length].
func (b *BatchEncoding) AttentionMaskTensor() (*tensors.Tensor, error) {
	return rows("attention_mask", b.AttentionMask)
}

// TokenTypeIDsTensor returns the token type ids as an int64 tensor [batch, length].
func (b *BatchEncoding) TokenTypeIDsTensor() (*tensors.Tensor, error) {
	return rows("token_type_ids", b.TokenTypeIDs)
}

// Tensors returns "input_ids", "attention_mask" and "token_type_ids" as int64
// tensors [batch, length] (return_tensors="pt"); the batch must be padded.
func (b *BatchEncoding) Tensors() (map[string]*tensors.Tensor, error) {
	out := map[string]*tensors.Tensor{}
	for name, r := range map[string][][]int64{"input_ids": b.InputIDs, "attention_mask": b.AttentionMask, "token_type_ids": b.TokenTypeIDs} {
		t, err := rows(name, r)
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}
