package datasets

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
)

// DataCollatorWithPadding pads tokenized rows into a batch of tensors, as transformers'
// DataCollatorWithPadding(tokenizer, pad_to_multiple_of=…) does with padding=True: every row
// to the batch's longest, rounded up to a multiple of PadToMultipleOf (8 for tensor cores under
// mixed precision), on the tokenizer's padding side. The batch holds, as int64 tensors [B, T]:
//
//   - input_ids, padded with PadTokenID;
//   - token_type_ids, when the rows have them, padded with PadTokenTypeID;
//   - attention_mask, padded with 0 (made from the rows' lengths when they have none, as the
//     tokenizer's pad does for models that take a mask);
//   - special_tokens_mask, when the rows have it, padded with 1;
//
// then one tensor [B] per other int64 (as int64) or float64 (as float32) column, and labels
// from the column "label", "labels" or "label_ids" ([B] int64 class ids, [B] float32 for
// regression, [B, K] float32 for multi-label targets). A string, bool or other list column is an
// error naming it (transformers fails on them too: drop them with RemoveColumns or Map's
// RemoveColumns).
//
// The padding values come from the tokenizer: NewDataCollatorWithPadding takes them from a
// tokenizers.Tokenizer, as transformers' DataCollatorWithPadding(tokenizer) does.
type DataCollatorWithPadding struct {
	PadTokenID     int64
	PadTokenTypeID int64
	// PaddingSide is "right" (the default when empty) or "left".
	PaddingSide string
	// PadToMultipleOf rounds the padded length up to a multiple of it; 0 pads to the longest.
	PadToMultipleOf int
}

// NewDataCollatorWithPadding returns the collator that pads as tok does: its padding token and
// type id and its padding side (transformers' DataCollatorWithPadding(tokenizer,
// pad_to_multiple_of=padToMultipleOf)). A tokenizer without a padding token is an error, as in
// transformers; set tok.PadToken first (to its end-of-text token, for GPT-2).
func NewDataCollatorWithPadding(tok *tokenizers.Tokenizer, padToMultipleOf int) (DataCollatorWithPadding, error) {
	id, ok := tok.TokenToID(tok.PadToken)
	if tok.PadToken == "" || !ok {
		return DataCollatorWithPadding{}, fmt.Errorf("datasets: NewDataCollatorWithPadding: the tokenizer has no padding token (PadToken %q); set tok.PadToken, to its end-of-text token say", tok.PadToken)
	}
	c := DataCollatorWithPadding{PadTokenID: int64(id), PadTokenTypeID: int64(tok.PadTokenTypeID), PaddingSide: tok.PaddingSide, PadToMultipleOf: padToMultipleOf}
	return c, c.check()
}

// labelNames are the columns transformers' collators rename to "labels".
var labelNames = []string{"label", "labels", "label_ids"}

// paddedNames are the token-level columns the collator pads, with their padding values.
var paddedNames = []string{"input_ids", "token_type_ids", "attention_mask", "special_tokens_mask"}

// collatable is a dataset checked and laid out for collating: token-level columns by name
// (nil when absent), other numeric columns, and the label column.
type collatable struct {
	tokens map[string][][]int64
	extra  []*column
	labels *column
}

func (c DataCollatorWithPadding) check() error {
	if c.PaddingSide != "" && c.PaddingSide != "right" && c.PaddingSide != "left" {
		return fmt.Errorf("datasets: DataCollatorWithPadding: PaddingSide %q must be \"right\" or \"left\"", c.PaddingSide)
	}
	if c.PadToMultipleOf < 0 {
		return fmt.Errorf("datasets: DataCollatorWithPadding: negative PadToMultipleOf %d", c.PadToMultipleOf)
	}
	return nil
}

// prepare checks the columns of ds for collating.
func (c DataCollatorWithPadding) prepare(ds *Dataset) (*collatable, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	p := &collatable{tokens: map[string][][]int64{}}
	ids := ds.col("input_ids")
	if ids == nil || ids.Kind != KindIntList {
		return nil, fmt.Errorf("datasets: DataCollatorWithPadding: the rows need an \"input_ids\" column of token ids (the dataset has %v); tokenize them with Map first", ds.ColumnNames())
	}
	for _, col := range ds.cols {
		if col.hasNulls() {
			i := slices.Index(col.Null, true)
			return nil, fmt.Errorf("datasets: DataCollatorWithPadding: row %d has no %q (null)", i, col.Name)
		}
		switch {
		case slices.Contains(paddedNames, col.Name):
			if col.Kind != KindIntList {
				return nil, fmt.Errorf("datasets: DataCollatorWithPadding: column %q holds %v values, not lists of ints", col.Name, col.Kind)
			}
			for i, row := range col.IntLists {
				if len(row) != len(ids.IntLists[i]) {
					return nil, fmt.Errorf("datasets: DataCollatorWithPadding: row %d has %d input_ids but %d %s", i, len(ids.IntLists[i]), len(row), col.Name)
				}
			}
			p.tokens[col.Name] = col.IntLists
		case slices.Contains(labelNames, col.Name):
			if p.labels != nil {
				return nil, fmt.Errorf("datasets: DataCollatorWithPadding: both %q and %q hold labels; keep one", p.labels.Name, col.Name)
			}
			if err := checkLabels(col); err != nil {
				return nil, err
			}
			p.labels = col
		case col.Kind == KindInt || col.Kind == KindFloat:
			p.extra = append(p.extra, col)
		default:
			return nil, fmt.Errorf("datasets: DataCollatorWithPadding: column %q holds %v values, which make no tensor of a batch (transformers fails on them too); remove it with RemoveColumns", col.Name, col.Kind)
		}
	}
	return p, nil
}

func checkLabels(col *column) error {
	switch col.Kind {
	case KindInt, KindFloat:
		return nil
	case KindFloatList:
		for i, row := range col.FloatLists {
			if len(row) != len(col.FloatLists[0]) {
				return fmt.Errorf("datasets: DataCollatorWithPadding: row %d has %d %s, row 0 has %d; multi-label targets have one value per class", i, len(row), col.Name, len(col.FloatLists[0]))
			}
		}
		return nil
	case KindString:
		return fmt.Errorf("datasets: DataCollatorWithPadding: the labels %q are strings; make them class ids with ClassEncodeColumn (or read with Options.Labels)", col.Name)
	}
	return fmt.Errorf("datasets: DataCollatorWithPadding: labels %q of %v values are per-token labels, which DataCollatorWithPadding does not pad (transformers' DataCollatorForTokenClassification does)", col.Name, col.Kind)
}

// Collate pads all the rows of batch into one batch of tensors.
func (c DataCollatorWithPadding) Collate(batch *Dataset) (*data.Batch, error) {
	p, err := c.prepare(batch)
	if err != nil {
		return nil, err
	}
	idx := make([]int, batch.Len())
	for i := range idx {
		idx[i] = i
	}
	return c.collate(p, idx), nil
}

// collate pads the rows idx of a prepared dataset.
func (c DataCollatorWithPadding) collate(p *collatable, idx []int) *data.Batch {
	ids := p.tokens["input_ids"]
	width := 0
	for _, i := range idx {
		width = max(width, len(ids[i]))
	}
	if m := c.PadToMultipleOf; m > 0 && width%m != 0 {
		width += m - width%m
	}
	b := data.NewBatch()
	pad := map[string]int64{"input_ids": c.PadTokenID, "token_type_ids": c.PadTokenTypeID, "attention_mask": 0, "special_tokens_mask": 1}
	for _, name := range paddedNames {
		rows, ok := p.tokens[name]
		if !ok && name != "attention_mask" {
			continue
		}
		flat := make([]int64, 0, len(idx)*width)
		for _, i := range idx {
			row := rows
			var values []int64
			if row != nil {
				values = row[i]
			} else {
				values = ones(len(ids[i]))
			}
			flat = c.padRow(flat, values, width, pad[name])
		}
		b.Set(name, tensors.FromInt64(flat, len(idx), width))
	}
	for _, col := range p.extra {
		b.Set(col.Name, scalarsTensor(col.take(idx)))
	}
	if p.labels != nil {
		b.Set("labels", scalarsTensor(p.labels.take(idx)))
	}
	return b
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// padRow appends values padded to width on the collator's side.
func (c DataCollatorWithPadding) padRow(dst, values []int64, width int, pad int64) []int64 {
	n := width - len(values)
	if c.PaddingSide == "left" {
		for range n {
			dst = append(dst, pad)
		}
		return append(dst, values...)
	}
	dst = append(dst, values...)
	for range n {
		dst = append(dst, pad)
	}
	return dst
}

// scalarsTensor makes the tensor of a column of one value per row (float lists as [B, K]).
func scalarsTensor(c *column) *tensors.Tensor {
	switch c.Kind {
	case KindInt:
		return tensors.FromInt64(c.Ints, len(c.Ints))
	case KindFloat:
		return tensors.New(convertAll(c.Floats, func(x float64) float32 { return float32(x) }), len(c.Floats))
	case KindFloatList:
		k := 0
		if len(c.FloatLists) > 0 {
			k = len(c.FloatLists[0])
		}
		flat := make([]float32, 0, len(c.FloatLists)*k)
		for _, row := range c.FloatLists {
			for _, x := range row {
				flat = append(flat, float32(x))
			}
		}
		return tensors.New(flat, len(c.FloatLists), k)
	}
	panic(fmt.Sprintf("datasets: no tensor for a %v column", c.Kind)) // prepare admits no other kind
}
