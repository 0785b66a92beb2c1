// Package normalizers holds tokenizers' normalisers (BertNormalizer, NFC,
// NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, Replace, Prepend, Nmt,
// ByteLevel, Precompiled, Sequence), each changing a normstr.String as the
// Rust library does, alignments included, and Parse, which builds one from
// its tokenizer.json object.
package normalizers

import (
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// Normalizer changes a string before it is cut into words.
type Normalizer interface {
	Normalize(s *normstr.String) error
}

// Bert is BertNormalizer.
type Bert struct {
	CleanText, HandleChineseChars, Lowercase bool
	StripAccents                             *bool // nil: follow Lowercase
}

// Normalize implements Normalizer.
func (b *Bert) Normalize(s *normstr.String) error {
	if b.CleanText {
		s.Filter(func(c rune) bool { return !(c == 0 || c == 0xfffd || uprops.IsBertControl(c)) })
		s.Map(func(c rune) rune {
			if uprops.IsBertWhitespace(c) {
				return ' '
			}
			return c
		})
	}
	if b.HandleChineseChars {
		dest := make([]normstr.Change, 0, len(s.Normalized))
		for _, c := range s.Normalized {
			if uprops.IsChineseChar(c) {
				dest = append(dest, normstr.Change{R: ' '}, normstr.Change{R: c, D: 1}, normstr.Change{R: ' ', D: 1})
			} else {
				dest = append(dest, normstr.Change{R: c})
			}
		}
		s.Transform(dest, 0)
	}
	strip := b.Lowercase
	if b.StripAccents != nil {
		strip = *b.StripAccents
	}
	if strip {
		nfd(s, false)
		s.Filter(func(c rune) bool { return !uprops.IsMarkNonspacing(c) })
	}
	if b.Lowercase {
		lowercase(s)
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func nfd(s *normstr.String, compat bool) {
	changes := uprops.Decompose(s.Normalized, compat, nil)
	s.Transform(toChanges(changes), 0)
}

func toChanges(in []uprops.Change) []normstr.Change {
	out := make([]normstr.Change, len(in))
	for i, c := range in {
		out[i] = normstr.Change{R: c.R, D: c.D}
	}
	return out
}

func lowercase(s *normstr.String) {
	if isASCII(s.Normalized) {
		s.Map(func(c rune) rune {
			if c >= 'A' && c <= 'Z' {
				return c + 'a' - 'A'
			}
			return c
		})
		return
	}
	s.MapMany(uprops.ToLower)
}

// Unicode is one of the four Unicode normal forms.
type Unicode struct{ Compose, Compat bool }

// Normalize implements Normalizer.
func (u *Unicode) Normalize(s *normstr.String) error {
	if u.Compose {
		s.Transform(toChanges(uprops.Compose(s.Normalized, u.Compat)), 0)
	} else {
		nfd(s, u.Compat)
	}
	return nil
}

// Lowercase is the Lowercase normaliser (Rust's char::to_lowercase).
type Lowercase struct{}

// Normalize implements Normalizer.
func (Lowercase) Normalize(s *normstr.String) error { lowercase(s); return nil }

// StripAccents drops combining marks.
type StripAccents struct{}

// Normalize implements Normalizer.
func (StripAccents) Normalize(s *normstr.String) error {
	s.Filter(func(c rune) bool { return !uprops.IsCombiningMark(c) })
	return nil
}

// Strip removes whitespace at the start and/or the end.
type Strip struct{ Left, Right bool }

// Normalize implements Normalizer.
func (st *Strip) Normalize(s *normstr.String) error {
	if st.Left && st.Right {
		s.Strip(true, true, uprops.IsWhitespace)
		return nil
	}
	if st.Left {
		s.Strip(true, false, uprops.IsWhitespace)
	}
	if st.Right {
		s.Strip(false, true, uprops.IsWhitespace)
	}
	return nil
}

// Replace replaces every match of a pattern by a string.
type Replace struct {
	Pattern normstr.Pattern
	Content string
}

// Normalize implements Normalizer.
func (r *Replace) Normalize(s *normstr.String) error { return s.Replace(r.Pattern, r.Content) }

// Prepend puts a string before non-empty input.
type Prepend struct{ Prefix string }

// Normalize implements Normalizer.
func (p *Prepend) Normalize(s *normstr.String) error {
	if s.Normalized != "" {
		s.Prepend(p.Prefix)
	}
	return nil
}

// Nmt is SentencePiece's nmt normalisation of control characters and spaces.
type Nmt struct{}

// Normalize implements Normalizer.
func (Nmt) Normalize(s *normstr.String) error {
	s.Filter(func(c rune) bool {
		return !((c >= 1 && c <= 8) || c == 0xB || (c >= 0xE && c <= 0x1F) || c == 0x7F || c == 0x8F || c == 0x9F)
	})
	s.Map(func(c rune) rune {
		switch {
		case c == 9, c == 0xA, c == 0xC, c == 0xD, c == 0x1680, c >= 0x200B && c <= 0x200F, c == 0x2028,
			c == 0x2029, c == 0x2581, c == 0xFEFF, c == 0xFFFD:
			return ' '
		}
		return c
	})
	return nil
}

// ByteLevel maps every byte to GPT-2's printable characters.
type ByteLevel struct{}

// Normalize implements Normalizer.
func (ByteLevel) Normalize(s *normstr.String) error {
	if s.Normalized == "" {
		return nil
	}
	s.Transform(ByteLevelChanges(s.Normalized), 0)
	return nil
}

// ByteLevelChanges turns every byte of s into its GPT-2 character, the
// first byte of a character replacing it and the others inserted.
func ByteLevelChanges(s string) []normstr.Change {
	dest := make([]normstr.Change, 0, len(s))
	for i, r := range s {
		for k := 0; k < utf8.RuneLen(r); k++ {
			d := 0
			if k > 0 {
				d = 1
			}
			dest = append(dest, normstr.Change{R: uprops.ByteToRune[s[i+k]], D: d})
		}
	}
	return dest
}

// Sequence runs normalisers one after the other.
type Sequence []Normalizer

// Normalize implements Normalizer.
func (q Sequence) Normalize(s *normstr.String) error {
	for _, n := range q {
		if err := n.Normalize(s); err != nil {
			return err
		}
	}
	return nil
}
