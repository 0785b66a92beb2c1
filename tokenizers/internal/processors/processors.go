// Package processors holds tokenizers' post-processors (TemplateProcessing,
// BertProcessing, RobertaProcessing, ByteLevel, Sequence), which add the
// special tokens around one sequence or a pair, and Parse, which builds one
// from its tokenizer.json object.
package processors

import (
	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// Processor adds special tokens to encoded sequences.
type Processor interface {
	// Added is the number of tokens added to a single sequence or a pair.
	Added(pair bool) int
	// Process transforms the encodings of one input (one or two sequences).
	Process(encs []*encoding.Encoding, addSpecial bool) ([]*encoding.Encoding, error)
}

// Apply runs p over a sequence and its optional pair as tokenizers'
// PostProcessor::process does (type ids set per sequence first), and merges
// the result. A nil p only merges.
func Apply(p Processor, enc, pair *encoding.Encoding, addSpecial bool) (*encoding.Encoding, error) {
	encs := []*encoding.Encoding{enc}
	if pair != nil {
		encs = append(encs, pair)
	}
	if p == nil {
		if len(encs) == 1 {
			return enc, nil
		}
		out := &encoding.Encoding{}
		for i, e := range encs {
			e.SetSequenceID(i)
			out.MergeWith(e, false)
		}
		return out, nil
	}
	for i, e := range encs {
		e.SetSequenceID(i)
		for _, o := range e.Overflowing {
			o.SetSequenceID(i)
		}
		e.SetTypeIDs(i)
	}
	out, err := p.Process(encs, addSpecial)
	if err != nil {
		return nil, err
	}
	return encoding.Merge(out, false), nil
}

// special is a special token given by text and id.
type special struct {
	Token string
	ID    int
}

func wrap(e *encoding.Encoding, before, after []special, typeBefore, typeAfter int, seq int, innerStart int) *encoding.Encoding {
	n := len(before) + e.Len() + len(after)
	out := &encoding.Encoding{
		IDs: make([]int, 0, n), TypeIDs: make([]int, 0, n), Tokens: make([]string, 0, n), Words: make([]int, 0, n),
		Offsets: make([][2]int, 0, n), Special: make([]int, 0, n), Attention: make([]int, 0, n),
	}
	add := func(s special, t int) {
		out.IDs = append(out.IDs, s.ID)
		out.TypeIDs = append(out.TypeIDs, t)
		out.Tokens = append(out.Tokens, s.Token)
		out.Words = append(out.Words, -1)
		out.Offsets = append(out.Offsets, [2]int{0, 0})
		out.Special = append(out.Special, 1)
		out.Attention = append(out.Attention, 1)
	}
	for _, s := range before {
		add(s, typeBefore)
	}
	out.IDs = append(out.IDs, e.IDs...)
	out.TypeIDs = append(out.TypeIDs, e.TypeIDs...)
	out.Tokens = append(out.Tokens, e.Tokens...)
	out.Words = append(out.Words, e.Words...)
	out.Offsets = append(out.Offsets, e.Offsets...)
	for range e.IDs {
		out.Special = append(out.Special, 0)
		out.Attention = append(out.Attention, 1)
	}
	for _, s := range after {
		add(s, typeAfter)
	}
	out.Ranges = map[int][2]int{seq: {innerStart, out.Len() - 1}}
	return out
}

// Bert is BertProcessing: [CLS] A [SEP] and B [SEP] with type ids 0 and 1.
type Bert struct{ Sep, Cls special }

// Added implements Processor.
func (b *Bert) Added(pair bool) int {
	if pair {
		return 3
	}
	return 2
}

// Process implements Processor.
func (b *Bert) Process(encs []*encoding.Encoding, addSpecial bool) ([]*encoding.Encoding, error) {
	if !addSpecial {
		return encs, nil
	}
	out := make([]*encoding.Encoding, len(encs))
	for i, e := range encs {
		do := func(e *encoding.Encoding) *encoding.Encoding {
			if i == 0 {
				return wrap(e, []special{b.Cls}, []special{b.Sep}, 0, 0, 0, 1)
			}
			return wrap(e, nil, []special{b.Sep}, 1, 1, 1, 0)
		}
		w := do(e)
		for _, o := range e.Overflowing {
			w.Overflowing = append(w.Overflowing, do(o))
		}
		out[i] = w
	}
	return out, nil
}

// Roberta is RobertaProcessing: <s> A </s> and </s> B </s>, all type 0,
// with ByteLevel's offset trimming.
type Roberta struct {
	Sep, Cls                    special
	TrimOffsets, AddPrefixSpace bool
}

// Added implements Processor.
func (r *Roberta) Added(pair bool) int {
	if pair {
		return 4
	}
	return 2
}

// Process implements Processor.
func (r *Roberta) Process(encs []*encoding.Encoding, addSpecial bool) ([]*encoding.Encoding, error) {
	if r.TrimOffsets {
		for _, e := range encs {
			TrimOffsets(e, r.AddPrefixSpace)
			for _, o := range e.Overflowing {
				TrimOffsets(o, r.AddPrefixSpace)
			}
		}
	}
	for _, e := range encs {
		e.SetTypeIDs(0)
	}
	if !addSpecial {
		return encs, nil
	}
	out := make([]*encoding.Encoding, len(encs))
	for i, e := range encs {
		do := func(e *encoding.Encoding) *encoding.Encoding {
			var w *encoding.Encoding
			if i == 0 {
				w = wrap(e, []special{r.Cls}, []special{r.Sep}, 0, 0, 0, 1)
			} else {
				w = wrap(e, []special{r.Sep}, []special{r.Sep}, 0, 0, 1, 1)
			}
			w.SetTypeIDs(0)
			return w
		}
		w := do(e)
		for _, o := range e.Overflowing {
			w.Overflowing = append(w.Overflowing, do(o))
		}
		out[i] = w
	}
	return out, nil
}

// ByteLevel trims the spaces that byte-level tokens carry off their offsets.
type ByteLevel struct{ TrimOffsets, AddPrefixSpace bool }

// Added implements Processor.
func (*ByteLevel) Added(bool) int { return 0 }

// Process implements Processor.
func (b *ByteLevel) Process(encs []*encoding.Encoding, _ bool) ([]*encoding.Encoding, error) {
	if b.TrimOffsets {
		for _, e := range encs {
			TrimOffsets(e, b.AddPrefixSpace)
			for _, o := range e.Overflowing {
				TrimOffsets(o, b.AddPrefixSpace)
			}
		}
	}
	for i, e := range encs {
		e.SetSequenceID(i)
	}
	return encs, nil
}

// TrimOffsets moves each token's offsets past its leading and before its
// trailing spaces (Ġ or whitespace), as tokenizers' process_offsets does.
func TrimOffsets(e *encoding.Encoding, addPrefixSpace bool) {
	space := uprops.ByteToRune[' ']
	isSpace := func(c rune) bool { return c == space || uprops.IsWhitespace(c) }
	for i, tok := range e.Tokens {
		rs := []rune(tok)
		lead, trail := 0, 0
		for lead < len(rs) && isSpace(rs[lead]) {
			lead++
		}
		for trail < len(rs) && isSpace(rs[len(rs)-1-trail]) {
			trail++
		}
		if lead == 0 && trail == 0 {
			continue
		}
		o := &e.Offsets[i]
		if lead > 0 {
			first := i == 0 || o[0] == 0
			if first && addPrefixSpace && lead == 1 {
				lead = 0
			}
			o[0] = min(o[0]+lead, o[1])
		}
		if trail > 0 && o[1] >= trail {
			o[1] = max(o[1]-trail, o[0])
		}
	}
}

// Sequence runs processors one after the other.
type Sequence []Processor

// Added implements Processor.
func (q Sequence) Added(pair bool) int {
	n := 0
	for _, p := range q {
		n += p.Added(pair)
	}
	return n
}

// Process implements Processor.
func (q Sequence) Process(encs []*encoding.Encoding, addSpecial bool) ([]*encoding.Encoding, error) {
	var err error
	for _, p := range q {
		if encs, err = p.Process(encs, addSpecial); err != nil {
			return nil, err
		}
	}
	return encs, nil
}
