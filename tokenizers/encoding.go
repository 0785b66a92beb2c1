package tokenizers

import "github.com/goaccel/goaccel/tokenizers/internal/encoding"

// Offset is the range [Start, End) of a token in its input text, in
// characters (Unicode code points), as Python's Encoding.offsets gives it.
// Special tokens have {0, 0}.
type Offset struct{ Start, End int }

// Encoding is one encoded input: Python's tokenizers.Encoding.
type Encoding struct {
	IDs    []int
	Tokens []string
	// TypeIDs are 0 for the first text of a pair and 1 for the second.
	TypeIDs []int
	Offsets []Offset
	// WordIDs give the word (pre-tokenised piece) each token comes from; -1
	// for special and padding tokens.
	WordIDs []int
	// SequenceIDs give the text of a pair each token comes from (0 or 1);
	// -1 for special and padding tokens.
	SequenceIDs       []int
	AttentionMask     []int
	SpecialTokensMask []int
	// Overflowing holds the windows cut off by truncation.
	Overflowing []*Encoding
}

// Len is the number of tokens.
func (e *Encoding) Len() int { return len(e.IDs) }

func fromInternal(e *encoding.Encoding) *Encoding {
	out := &Encoding{IDs: e.IDs, Tokens: e.Tokens, TypeIDs: e.TypeIDs, WordIDs: e.Words, SequenceIDs: e.SequenceIDs(),
		AttentionMask: e.Attention, SpecialTokensMask: e.Special, Offsets: make([]Offset, len(e.Offsets))}
	for i, o := range e.Offsets {
		out.Offsets[i] = Offset{o[0], o[1]}
	}
	for _, o := range e.Overflowing {
		out.Overflowing = append(out.Overflowing, fromInternal(o))
	}
	return out
}
