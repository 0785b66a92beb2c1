package normalizers

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// Precompiled is SentencePiece's precompiled character map (T5, ALBERT,
// XLM-R…): a Darts double-array trie over UTF-8 keys and a blob of
// NUL-terminated replacements, applied grapheme by grapheme as the
// spm_precompiled crate and tokenizers do.
type Precompiled struct {
	trie       []uint32
	normalized string
}

// NewPrecompiled parses the base64 charsmap of a tokenizer.json.
func NewPrecompiled(b64 string) (*Precompiled, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, errors.New("precompiled_charsmap is not base64: " + err.Error())
	}
	if len(raw) < 4 {
		return nil, errors.New("precompiled_charsmap is too short to hold its trie size")
	}
	size := binary.LittleEndian.Uint32(raw)
	n := int(size / 4)
	if 4+4*n > len(raw) {
		return nil, errors.New("precompiled_charsmap is truncated: its trie is longer than the data")
	}
	trie := make([]uint32, n)
	for i := range trie {
		trie[i] = binary.LittleEndian.Uint32(raw[4+4*i:])
	}
	blob := raw[4+4*n:]
	if !utf8.Valid(blob) {
		return nil, errors.New("precompiled_charsmap's replacement strings are not UTF-8")
	}
	if len(trie) == 0 {
		return nil, errors.New("precompiled_charsmap has an empty trie")
	}
	return &Precompiled{trie: trie, normalized: string(blob)}, nil
}

func (p *Precompiled) unit(i uint32) (uint32, bool) {
	if int(i) >= len(p.trie) {
		return 0, false
	}
	return p.trie[i], true
}

// transform returns the replacement of the shortest key that is a prefix of
// chunk (spm_precompiled takes the first result of its prefix search).
func (p *Precompiled) transform(chunk string) (string, bool) {
	offset := func(u uint32) uint32 { return (u >> 10) << ((u & (1 << 9)) >> 6) }
	label := func(u uint32) uint32 { return u & ((1 << 31) | 0xFF) }
	pos := uint32(0)
	u, _ := p.unit(0)
	pos ^= offset(u)
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		if c == 0 {
			break
		}
		pos ^= uint32(c)
		var ok bool
		if u, ok = p.unit(pos); !ok || label(u) != uint32(c) {
			return "", false
		}
		pos ^= offset(u)
		if (u>>8)&1 == 1 {
			leaf, ok := p.unit(pos)
			if !ok {
				return "", false
			}
			start := int(leaf & ((1 << 31) - 1))
			if start > len(p.normalized) {
				return "", false
			}
			end := start
			for end < len(p.normalized) && p.normalized[end] != 0 {
				end++
			}
			return p.normalized[start:end], true
		}
	}
	return "", false
}

// replace appends the changes that turn old into new (tokenizers'
// precompiled.rs replace).
func replace(dest []normstr.Change, old, new string) []normstr.Change {
	diff := utf8.RuneCountInString(new) - utf8.RuneCountInString(old)
	for _, c := range new {
		dest = append(dest, normstr.Change{R: c})
	}
	switch {
	case diff > 0:
		for k := 0; k < diff && k < len(dest); k++ {
			dest[len(dest)-1-k].D = 1
		}
	case diff < 0 && len(dest) > 0:
		dest[len(dest)-1].D += diff
	}
	return dest
}

// Normalize implements Normalizer.
func (p *Precompiled) Normalize(s *normstr.String) error {
	dest := make([]normstr.Change, 0, len(s.Normalized))
	modified := false
	g := uniseg.NewGraphemes(s.Normalized)
	for g.Next() {
		gr := g.Str()
		if len(gr) < 6 {
			if norm, ok := p.transform(gr); ok {
				modified = true
				dest = replace(dest, gr, norm)
				continue
			}
		}
		for i, c := range gr {
			part := gr[i : i+utf8.RuneLen(c)]
			if norm, ok := p.transform(part); ok {
				modified = true
				dest = replace(dest, part, norm)
			} else {
				dest = append(dest, normstr.Change{R: c})
			}
		}
	}
	if modified {
		s.Transform(dest, 0)
	}
	return nil
}
