package processors

import (
	"encoding/json"
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Parse builds the post-processor a tokenizer.json describes; null gives nil.
func Parse(raw json.RawMessage) (Processor, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	o, err := spec.Parse("post_processor", raw)
	if err != nil {
		return nil, err
	}
	pairOf := func(name string) (special, error) {
		var v [2]json.RawMessage
		var s special
		if err := o.Get(name, &v, true); err != nil {
			return s, err
		}
		if err := json.Unmarshal(v[0], &s.Token); err != nil {
			return s, o.Errorf("field %q: token: %v", name, err)
		}
		if err := json.Unmarshal(v[1], &s.ID); err != nil {
			return s, o.Errorf("field %q: id: %v", name, err)
		}
		return s, nil
	}
	switch o.Type {
	case "BertProcessing":
		sep, err := pairOf("sep")
		if err != nil {
			return nil, err
		}
		cls, err := pairOf("cls")
		if err != nil {
			return nil, err
		}
		return &Bert{Sep: sep, Cls: cls}, nil
	case "RobertaProcessing":
		sep, err := pairOf("sep")
		if err != nil {
			return nil, err
		}
		cls, err := pairOf("cls")
		if err != nil {
			return nil, err
		}
		r := &Roberta{Sep: sep, Cls: cls, TrimOffsets: true, AddPrefixSpace: true}
		if err := o.Get("trim_offsets", &r.TrimOffsets, false); err != nil {
			return nil, err
		}
		return r, o.Get("add_prefix_space", &r.AddPrefixSpace, false)
	case "ByteLevel":
		b := &ByteLevel{TrimOffsets: true, AddPrefixSpace: true}
		if err := o.Get("trim_offsets", &b.TrimOffsets, false); err != nil {
			return nil, err
		}
		return b, o.Get("add_prefix_space", &b.AddPrefixSpace, false)
	case "TemplateProcessing":
		return parseTemplate(o)
	case "Sequence":
		var list []json.RawMessage
		if err := o.Get("processors", &list, true); err != nil {
			return nil, err
		}
		seq := make(Sequence, 0, len(list))
		for i, item := range list {
			p, err := Parse(item)
			if err != nil {
				return nil, fmt.Errorf("post_processor Sequence item %d: %w", i, err)
			}
			if p != nil {
				seq = append(seq, p)
			}
		}
		return seq, nil
	case "":
		return nil, fmt.Errorf("post_processor without a \"type\": goaccel reads only tagged components")
	}
	return nil, o.Unsupported()
}

func parseTemplate(o *spec.Object) (Processor, error) {
	type pieceJSON struct {
		Sequence *struct {
			ID     string `json:"id"`
			TypeID int    `json:"type_id"`
		} `json:"Sequence"`
		SpecialToken *struct {
			ID     string `json:"id"`
			TypeID int    `json:"type_id"`
		} `json:"SpecialToken"`
	}
	read := func(name string) ([]piece, error) {
		var list []pieceJSON
		if err := o.Get(name, &list, true); err != nil {
			return nil, err
		}
		out := make([]piece, 0, len(list))
		for i, p := range list {
			switch {
			case p.Sequence != nil:
				seq := 0
				switch p.Sequence.ID {
				case "A":
				case "B":
					seq = 1
				default:
					return nil, o.Errorf("%s item %d: unknown sequence %q (want A or B)", name, i, p.Sequence.ID)
				}
				out = append(out, piece{seq: seq, typeID: p.Sequence.TypeID})
			case p.SpecialToken != nil:
				out = append(out, piece{seq: -1, special: p.SpecialToken.ID, typeID: p.SpecialToken.TypeID})
			default:
				return nil, o.Errorf("%s item %d is neither a Sequence nor a SpecialToken", name, i)
			}
		}
		return out, nil
	}
	single, err := read("single")
	if err != nil {
		return nil, err
	}
	pair, err := read("pair")
	if err != nil {
		return nil, err
	}
	var toks map[string]struct {
		ID     string   `json:"id"`
		IDs    []int    `json:"ids"`
		Tokens []string `json:"tokens"`
	}
	if err := o.Get("special_tokens", &toks, true); err != nil {
		return nil, err
	}
	tokens := make(map[string]templateToken, len(toks))
	for k, v := range toks {
		if len(v.IDs) != len(v.Tokens) {
			return nil, o.Errorf("special token %q: ids and tokens must be of the same length", k)
		}
		tokens[k] = templateToken{IDs: v.IDs, Tokens: v.Tokens}
	}
	t, err := NewTemplate(single, pair, tokens)
	if err != nil {
		return nil, o.Errorf("%v", err)
	}
	return t, nil
}
