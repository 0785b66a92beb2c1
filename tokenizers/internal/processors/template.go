package processors

import (
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
)

// piece is one element of a template: a sequence ($A or $B) or a special
// token, each with the type id its tokens get.
type piece struct {
	seq     int // 0 for $A, 1 for $B, -1 for a special token
	special string
	typeID  int
}

// templateToken is the ids and token texts one special token of a template
// stands for.
type templateToken struct {
	IDs    []int
	Tokens []string
}

// Template is TemplateProcessing.
type Template struct {
	single, pair   []piece
	tokens         map[string]templateToken
	nSingle, nPair int
}

func (t *Template) count(ps []piece) int {
	n := 0
	for _, p := range ps {
		if p.seq < 0 {
			n += len(t.tokens[p.special].IDs)
		}
	}
	return n
}

// NewTemplate checks the templates: the pair uses both sequences and every
// special token is defined.
func NewTemplate(single, pair []piece, tokens map[string]templateToken) (*Template, error) {
	hasA, hasB := false, false
	for _, p := range pair {
		hasA = hasA || p.seq == 0
		hasB = hasB || p.seq == 1
	}
	if !hasA || !hasB {
		return nil, fmt.Errorf("template for `pair` must use both sequences")
	}
	for _, ps := range [][]piece{single, pair} {
		for _, p := range ps {
			if p.seq < 0 {
				if _, ok := tokens[p.special]; !ok {
					return nil, fmt.Errorf("missing SpecialToken(s) with id(s) `%s`", p.special)
				}
			}
		}
	}
	t := &Template{single: single, pair: pair, tokens: tokens}
	t.nSingle, t.nPair = t.count(single), t.count(pair)
	return t, nil
}

// Added implements Processor.
func (t *Template) Added(pair bool) int {
	if pair {
		return t.nPair
	}
	return t.nSingle
}

// Process implements Processor.
func (t *Template) Process(encs []*encoding.Encoding, addSpecial bool) ([]*encoding.Encoding, error) {
	tpl := t.single
	switch len(encs) {
	case 1:
	case 2:
		tpl = t.pair
	default:
		return nil, fmt.Errorf("TemplateProcessing: %d sequences, want 1 or 2", len(encs))
	}
	var out []*encoding.Encoding
	for _, p := range tpl {
		if p.seq >= 0 {
			if p.seq >= len(encs) {
				return nil, fmt.Errorf("TemplateProcessing: the template uses $B but there is no pair")
			}
			e := encs[p.seq]
			e.SetTypeIDs(p.typeID)
			e.SetSequenceID(p.seq)
			out = append(out, e.Clone())
			continue
		}
		if !addSpecial {
			continue
		}
		tok := t.tokens[p.special]
		n := len(tok.IDs)
		e := &encoding.Encoding{IDs: append([]int(nil), tok.IDs...), Tokens: append([]string(nil), tok.Tokens...),
			TypeIDs: make([]int, n), Words: make([]int, n), Offsets: make([][2]int, n), Special: make([]int, n),
			Attention: make([]int, n)}
		for i := 0; i < n; i++ {
			e.TypeIDs[i], e.Words[i], e.Special[i], e.Attention[i] = p.typeID, -1, 1, 1
		}
		out = append(out, e)
	}
	return out, nil
}
