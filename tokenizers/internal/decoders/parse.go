package decoders

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Parse builds the decoder a tokenizer.json describes; null gives nil.
func Parse(raw json.RawMessage) (Decoder, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	o, err := spec.Parse("decoder", raw)
	if err != nil {
		return nil, err
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
	case "ByteLevel":
		return ByteLevel{}, nil
	case "WordPiece":
		w := &WordPiece{Prefix: "##", Cleanup: true}
		if err := o.Get("prefix", &w.Prefix, false); err != nil {
			return nil, err
		}
		return w, o.Get("cleanup", &w.Cleanup, false)
	case "Metaspace":
		r, err := char("replacement")
		if err != nil {
			return nil, err
		}
		scheme := "always"
		if err := o.Get("prepend_scheme", &scheme, false); err != nil {
			return nil, err
		}
		if o.Has("add_prefix_space") {
			var add bool
			if err := o.Get("add_prefix_space", &add, false); err != nil {
				return nil, err
			}
			if !add {
				if scheme != "never" {
					return nil, o.Errorf("add_prefix_space does not match declared prepend_scheme")
				}
			}
		}
		if scheme != "always" && scheme != "first" && scheme != "never" {
			return nil, o.Errorf("unknown prepend_scheme %q (want always, first or never)", scheme)
		}
		return &Metaspace{Replacement: r, PrependNever: scheme == "never"}, nil
	case "ByteFallback":
		return ByteFallback{}, nil
	case "Fuse":
		return Fuse{}, nil
	case "Strip":
		r, err := char("content")
		if err != nil {
			return nil, err
		}
		s := &Strip{Content: r}
		if err := o.Get("start", &s.Start, true); err != nil {
			return nil, err
		}
		return s, o.Get("stop", &s.Stop, true)
	case "Replace":
		p, err := o.Pattern("pattern")
		if err != nil {
			return nil, err
		}
		r := &Replace{Pattern: p}
		return r, o.Get("content", &r.Content, true)
	case "BPEDecoder":
		b := &BPE{Suffix: "</w>"}
		return b, o.Get("suffix", &b.Suffix, false)
	case "CTC":
		c := &CTC{Pad: "<pad>", WordDelimiter: "|", Cleanup: true}
		if err := o.Get("pad_token", &c.Pad, false); err != nil {
			return nil, err
		}
		if err := o.Get("word_delimiter_token", &c.WordDelimiter, false); err != nil {
			return nil, err
		}
		return c, o.Get("cleanup", &c.Cleanup, false)
	case "Sequence":
		var list []json.RawMessage
		if err := o.Get("decoders", &list, true); err != nil {
			return nil, err
		}
		seq := make(Sequence, 0, len(list))
		for i, item := range list {
			d, err := Parse(item)
			if err != nil {
				return nil, fmt.Errorf("decoder Sequence item %d: %w", i, err)
			}
			if d != nil {
				seq = append(seq, d)
			}
		}
		return seq, nil
	case "":
		return nil, fmt.Errorf("decoder without a \"type\": goaccel reads only tagged components")
	}
	return nil, o.Unsupported()
}
