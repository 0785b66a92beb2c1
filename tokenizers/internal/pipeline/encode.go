package pipeline

import (
	"fmt"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/processors"
)

// Encode encodes a sequence and an optional pair as tokenizers' Python
// Tokenizer.encode does (character offsets), with trunc and pad in place
// of the file's settings.
func (t *Tokenizer) Encode(seq string, pair *string, addSpecial bool, trunc *Truncation, pad *Padding) (enc *encoding.Encoding, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(normstr.Failure)
			if !ok {
				panic(r)
			}
			enc, err = nil, fmt.Errorf("tokenizers would abort here: %s", f.Msg)
		}
	}()
	e, err := t.encodeOne(seq, 0)
	if err != nil {
		return nil, err
	}
	var p *encoding.Encoding
	if pair != nil {
		if p, err = t.encodeOne(*pair, 1); err != nil {
			return nil, err
		}
	}
	return t.postProcess(e, p, addSpecial, trunc, pad)
}

func (t *Tokenizer) encodeOne(text string, typeID int) (*encoding.Encoding, error) {
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("the text is not valid UTF-8")
	}
	pt := t.added.extractAndNormalize(t.Normalizer, text)
	if t.PreTokenizer != nil {
		if err := t.PreTokenizer.PreTokenize(pt); err != nil {
			return nil, err
		}
	}
	for i := range pt.Pieces {
		pc := &pt.Pieces[i]
		if pc.Done {
			continue
		}
		toks, err := t.Model.Tokenize(pc.S.Normalized)
		if err != nil {
			return nil, err
		}
		pc.Tokens, pc.Done = toks, true
	}
	return intoEncoding(pt, typeID), nil
}

// intoEncoding gathers the tokens of every piece with offsets in characters
// of the original text (into_encoding with OffsetType::Char).
func intoEncoding(pt *normstr.PreTokenized, typeID int) *encoding.Encoding {
	n := 0
	for _, pc := range pt.Pieces {
		n += len(pc.Tokens)
	}
	e := &encoding.Encoding{IDs: make([]int, 0, n), TypeIDs: make([]int, 0, n), Tokens: make([]string, 0, n),
		Words: make([]int, 0, n), Offsets: make([][2]int, 0, n), Special: make([]int, n), Attention: make([]int, n)}
	conv := newCharConverter(pt.Original)
	for idx, pc := range pt.Pieces {
		shift, _ := pc.S.OffsetsOriginal()
		for _, tok := range pc.Tokens {
			o := [2]int{tok.Start, tok.End}
			if s, en, ok := pc.S.NormalizedToOriginal(tok.Start, tok.End); ok {
				o = [2]int{shift + s, shift + en}
			}
			o = conv.convert(o)
			e.IDs = append(e.IDs, tok.ID)
			e.Tokens = append(e.Tokens, tok.Value)
			e.Offsets = append(e.Offsets, o)
			e.Words = append(e.Words, idx)
			e.TypeIDs = append(e.TypeIDs, typeID)
		}
	}
	for i := range e.Attention {
		e.Attention[i] = 1
	}
	return e
}

// charConverter maps byte offsets of a text to character offsets
// (BytesToCharOffsetConverter).
type charConverter struct {
	n     int   // bytes in the text
	chars []int // chars[b] is the index of the character byte b belongs to; nil for ASCII
}

func newCharConverter(s string) *charConverter {
	c := &charConverter{n: len(s)}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			c.chars = make([]int, len(s))
			k := 0
			for i, r := range s {
				for j := 0; j < utf8.RuneLen(r); j++ {
					c.chars[i+j] = k
				}
				k++
			}
			break
		}
	}
	return c
}

func (c *charConverter) lookup(b int) (int, bool) {
	if b < 0 || b >= c.n {
		return 0, false
	}
	if c.chars == nil {
		return b, true
	}
	return c.chars[b], true
}

func (c *charConverter) convert(o [2]int) [2]int {
	s, ok := c.lookup(o[0])
	if !ok {
		return o // tokenizers keeps the byte offsets then
	}
	if e, ok := c.lookup(o[1]); ok {
		return [2]int{s, e}
	}
	last, ok := c.lookup(o[1] - 1)
	if !ok {
		last = s + 1
	}
	return [2]int{s, last + 1}
}

// postProcess truncates, adds the special tokens and pads (post_process).
func (t *Tokenizer) postProcess(e, pair *encoding.Encoding, addSpecial bool, trunc *Truncation, pad *Padding) (*encoding.Encoding, error) {
	if trunc != nil {
		params := *trunc
		n := 0
		if t.Processor != nil {
			n = t.Processor.Added(pair != nil)
		}
		if addSpecial && n > 0 {
			if params.MaxLength < n {
				// tokenizers subtracts in unsigned arithmetic: the limit wraps
				// around to a huge number and nothing is truncated.
				params.MaxLength = int(^uint(0) >> 1)
			} else {
				params.MaxLength -= n
			}
		}
		if err := truncateEncodings(e, pair, &params); err != nil {
			return nil, err
		}
	}
	out, err := processors.Apply(t.Processor, e, pair, addSpecial)
	if err != nil {
		return nil, err
	}
	if pad != nil {
		if err := PadEncodings([]*encoding.Encoding{out}, pad); err != nil {
			return nil, err
		}
	}
	return out, nil
}
