package normalizers

import (
	"encoding/json"
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Parse builds the normaliser a tokenizer.json describes; null gives nil.
func Parse(raw json.RawMessage) (Normalizer, error) {
	if spec.IsNull(raw) {
		return nil, nil
	}
	o, err := spec.Parse("normalizer", raw)
	if err != nil {
		return nil, err
	}
	switch o.Type {
	case "BertNormalizer":
		b := &Bert{CleanText: true, HandleChineseChars: true, Lowercase: true}
		for name, p := range map[string]*bool{"clean_text": &b.CleanText, "handle_chinese_chars": &b.HandleChineseChars, "lowercase": &b.Lowercase} {
			if err := o.Get(name, p, false); err != nil {
				return nil, err
			}
		}
		if o.Has("strip_accents") {
			var v bool
			if err := o.Get("strip_accents", &v, false); err != nil {
				return nil, err
			}
			b.StripAccents = &v
		}
		return b, nil
	case "NFC":
		return &Unicode{Compose: true}, nil
	case "NFD":
		return &Unicode{}, nil
	case "NFKC":
		return &Unicode{Compose: true, Compat: true}, nil
	case "NFKD":
		return &Unicode{Compat: true}, nil
	case "Lowercase":
		return Lowercase{}, nil
	case "StripAccents":
		return StripAccents{}, nil
	case "Nmt":
		return Nmt{}, nil
	case "ByteLevel":
		return ByteLevel{}, nil
	case "Strip":
		st := &Strip{}
		if err := o.Get("strip_left", &st.Left, true); err != nil {
			return nil, err
		}
		if err := o.Get("strip_right", &st.Right, true); err != nil {
			return nil, err
		}
		return st, nil
	case "Replace":
		p, err := o.Pattern("pattern")
		if err != nil {
			return nil, err
		}
		r := &Replace{Pattern: p}
		if err := o.Get("content", &r.Content, true); err != nil {
			return nil, err
		}
		return r, nil
	case "Prepend":
		p := &Prepend{}
		if err := o.Get("prepend", &p.Prefix, true); err != nil {
			return nil, err
		}
		return p, nil
	case "Precompiled":
		var b64 string
		if err := o.Get("precompiled_charsmap", &b64, true); err != nil {
			return nil, err
		}
		p, err := NewPrecompiled(b64)
		if err != nil {
			return nil, o.Errorf("%v", err)
		}
		return p, nil
	case "Sequence":
		var list []json.RawMessage
		if err := o.Get("normalizers", &list, true); err != nil {
			return nil, err
		}
		seq := make(Sequence, 0, len(list))
		for i, item := range list {
			n, err := Parse(item)
			if err != nil {
				return nil, fmt.Errorf("normalizer Sequence item %d: %w", i, err)
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		return seq, nil
	case "":
		return nil, fmt.Errorf("normalizer without a \"type\": goaccel reads only tagged components (tokenizers ≥ 0.10 writes them)")
	}
	return nil, o.Unsupported()
}
