package pretokenizers

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Parse builds the pre-tokeniser a tokenizer.json describes; null gives nil.
func Parse(raw json.RawMessage) (PreTokenizer, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	o, err := spec.Parse("pre_tokenizer", raw)
	if err != nil {
		return nil, err
	}
	behavior := func(def normstr.Behavior, required bool) (normstr.Behavior, error) {
		var name string
		if err := o.Get("behavior", &name, required); err != nil {
			return 0, err
		}
		if name == "" {
			return def, nil
		}
		b, err := normstr.ParseBehavior(name)
		if err != nil {
			return 0, o.Errorf("%v", err)
		}
		return b, nil
	}
	char := func(name string) (rune, error) {
		var s string
		if err := o.Get(name, &s, true); err != nil {
			return 0, err
		}
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 || n != len(s) {
			return 0, o.Errorf("field %q must be exactly one character, got %q", name, s)
		}
		return r, nil
	}
	switch o.Type {
	case "BertPreTokenizer":
		return Bert{}, nil
	case "Whitespace":
		return Whitespace{}, nil
	case "WhitespaceSplit":
		return WhitespaceSplit{}, nil
	case "Punctuation":
		b, err := behavior(normstr.Isolated, false)
		if err != nil {
			return nil, err
		}
		return &Punctuation{Behavior: b}, nil
	case "Digits":
		d := &Digits{}
		return d, o.Get("individual_digits", &d.Individual, false)
	case "CharDelimiterSplit":
		r, err := char("delimiter")
		if err != nil {
			return nil, err
		}
		return &CharDelimiterSplit{Delimiter: r}, nil
	case "Split":
		p, err := o.Pattern("pattern")
		if err != nil {
			return nil, err
		}
		b, err := behavior(0, true)
		if err != nil {
			return nil, err
		}
		sp := &Split{Pattern: p, Behavior: b}
		return sp, o.Get("invert", &sp.Invert, true)
	case "ByteLevel":
		addPrefix, useRegex := true, true
		if err := o.Get("add_prefix_space", &addPrefix, false); err != nil {
			return nil, err
		}
		if err := o.Get("use_regex", &useRegex, false); err != nil {
			return nil, err
		}
		return NewByteLevel(addPrefix, useRegex), nil
	case "Metaspace":
		r, err := char("replacement")
		if err != nil {
			return nil, err
		}
		m := &Metaspace{Replacement: r, Prepend: PrependAlways, Split: true}
		if err := o.Get("prepend_scheme", &m.Prepend, false); err != nil {
			return nil, err
		}
		if m.Prepend != PrependAlways && m.Prepend != PrependFirst && m.Prepend != PrependNever {
			return nil, o.Errorf("unknown prepend_scheme %q (want always, first or never)", m.Prepend)
		}
		if err := o.Get("split", &m.Split, false); err != nil {
			return nil, err
		}
		if o.Has("add_prefix_space") {
			var add bool
			if err := o.Get("add_prefix_space", &add, false); err != nil {
				return nil, err
			}
			if !add {
				if m.Prepend != PrependNever {
					return nil, o.Errorf("add_prefix_space does not match declared prepend_scheme")
				}
				m.Prepend = PrependNever
			}
		}
		return m, nil
	case "Sequence":
		var list []json.RawMessage
		if err := o.Get("pretokenizers", &list, true); err != nil {
			return nil, err
		}
		seq := make(Sequence, 0, len(list))
		for i, item := range list {
			t, err := Parse(item)
			if err != nil {
				return nil, fmt.Errorf("pre_tokenizer Sequence item %d: %w", i, err)
			}
			if t != nil {
				seq = append(seq, t)
			}
		}
		return seq, nil
	case "":
		return nil, fmt.Errorf("pre_tokenizer without a \"type\": goaccel reads only tagged components")
	}
	return nil, o.Unsupported()
}
