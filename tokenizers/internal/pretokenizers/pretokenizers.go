// Package pretokenizers holds tokenizers' pre-tokenisers (BertPreTokenizer,
// Whitespace, WhitespaceSplit, Punctuation, Digits, Split, ByteLevel,
// Metaspace, CharDelimiterSplit, Sequence), which cut the normalised input
// into the pieces the model tokenises, and Parse, which builds one from its
// tokenizer.json object.
package pretokenizers

import (
	"strings"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normalizers"
	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/regex"
	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// PreTokenizer cuts the pieces of an input into smaller ones.
type PreTokenizer interface {
	PreTokenize(p *normstr.PreTokenized) error
}

func splitAll(p *normstr.PreTokenized, pat normstr.Pattern, b normstr.Behavior) error {
	return p.SplitStrings(func(_ int, s *normstr.String) ([]*normstr.String, error) {
		return s.Split(pat, b)
	})
}

// Bert splits on whitespace (removed) and punctuation (kept alone).
type Bert struct{}

// PreTokenize implements PreTokenizer.
func (Bert) PreTokenize(p *normstr.PreTokenized) error {
	if err := splitAll(p, normstr.RunePattern(uprops.IsWhitespace), normstr.Removed); err != nil {
		return err
	}
	return splitAll(p, normstr.RunePattern(uprops.IsPunctuation), normstr.Isolated)
}

// Whitespace keeps the runs of \w+ and of [^\w\s]+.
type Whitespace struct{}

type wordRuns struct{}

func (wordRuns) FindMatches(s string) ([]normstr.Match, error) {
	if s == "" {
		return []normstr.Match{{}}, nil
	}
	var out []normstr.Match
	prev := 0
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		var class func(rune) bool
		switch {
		case uprops.IsWordChar(c):
			class = uprops.IsWordChar
		case !uprops.IsWhitespace(c):
			class = func(r rune) bool { return !uprops.IsWordChar(r) && !uprops.IsWhitespace(r) }
		default:
			i += n
			continue
		}
		j := i
		for j < len(s) {
			d, m := utf8.DecodeRuneInString(s[j:])
			if !class(d) {
				break
			}
			j += m
		}
		if prev != i {
			out = append(out, normstr.Match{Start: prev, End: i})
		}
		out = append(out, normstr.Match{Start: i, End: j, IsMatch: true})
		prev, i = j, j
	}
	if prev != len(s) {
		out = append(out, normstr.Match{Start: prev, End: len(s)})
	}
	return out, nil
}

// PreTokenize implements PreTokenizer.
func (Whitespace) PreTokenize(p *normstr.PreTokenized) error {
	return splitAll(p, normstr.Invert{P: wordRuns{}}, normstr.Removed)
}

// WhitespaceSplit splits on whitespace.
type WhitespaceSplit struct{}

// PreTokenize implements PreTokenizer.
func (WhitespaceSplit) PreTokenize(p *normstr.PreTokenized) error {
	return splitAll(p, normstr.RunePattern(uprops.IsWhitespace), normstr.Removed)
}

// Punctuation splits on punctuation characters.
type Punctuation struct{ Behavior normstr.Behavior }

// PreTokenize implements PreTokenizer.
func (q *Punctuation) PreTokenize(p *normstr.PreTokenized) error {
	return splitAll(p, normstr.RunePattern(uprops.IsPunctuation), q.Behavior)
}

// Digits splits off numbers, or every digit alone.
type Digits struct{ Individual bool }

// PreTokenize implements PreTokenizer.
func (d *Digits) PreTokenize(p *normstr.PreTokenized) error {
	b := normstr.Contiguous
	if d.Individual {
		b = normstr.Isolated
	}
	return splitAll(p, normstr.RunePattern(uprops.IsNumeric), b)
}

// CharDelimiterSplit splits on one character, removed.
type CharDelimiterSplit struct{ Delimiter rune }

// PreTokenize implements PreTokenizer.
func (c *CharDelimiterSplit) PreTokenize(p *normstr.PreTokenized) error {
	d := c.Delimiter
	return splitAll(p, normstr.RunePattern(func(r rune) bool { return r == d }), normstr.Removed)
}

// Split splits on a pattern.
type Split struct {
	Pattern  normstr.Pattern
	Behavior normstr.Behavior
	Invert   bool
}

// PreTokenize implements PreTokenizer.
func (sp *Split) PreTokenize(p *normstr.PreTokenized) error {
	pat := sp.Pattern
	if sp.Invert {
		pat = normstr.Invert{P: pat}
	}
	return splitAll(p, pat, sp.Behavior)
}

// ByteLevel is GPT-2's pre-tokeniser: an optional leading space, the GPT-2
// pattern, then every byte mapped to a printable character.
type ByteLevel struct {
	AddPrefixSpace, UseRegex bool
	re                       *regex.Regex
}

// NewByteLevel returns the ByteLevel pre-tokeniser.
func NewByteLevel(addPrefixSpace, useRegex bool) *ByteLevel {
	re, err := regex.Compile(regex.GPT2Pattern)
	if err != nil {
		panic(err) // a constant pattern
	}
	return &ByteLevel{AddPrefixSpace: addPrefixSpace, UseRegex: useRegex, re: re}
}

// PreTokenize implements PreTokenizer.
func (b *ByteLevel) PreTokenize(p *normstr.PreTokenized) error {
	err := p.SplitStrings(func(_ int, s *normstr.String) ([]*normstr.String, error) {
		if b.AddPrefixSpace && !strings.HasPrefix(s.Normalized, " ") {
			s.Prepend(" ")
		}
		if b.UseRegex {
			return s.Split(b.re, normstr.Isolated)
		}
		return []*normstr.String{s}, nil
	})
	if err != nil {
		return err
	}
	return p.Normalize(func(s *normstr.String) error {
		s.Transform(normalizers.ByteLevelChanges(s.Normalized), 0)
		return nil
	})
}

// Prepend schemes of Metaspace.
const (
	PrependAlways = "always"
	PrependFirst  = "first"
	PrependNever  = "never"
)

// Metaspace replaces spaces by a visible character (▁) and splits before it.
type Metaspace struct {
	Replacement rune
	Prepend     string
	Split       bool
}

// PreTokenize implements PreTokenizer.
func (m *Metaspace) PreTokenize(p *normstr.PreTokenized) error {
	rep := string(m.Replacement)
	isSpace := normstr.RunePattern(func(r rune) bool { return r == ' ' })
	isRep := normstr.RunePattern(func(r rune) bool { return r == m.Replacement })
	return p.SplitStrings(func(_ int, s *normstr.String) ([]*normstr.String, error) {
		if err := s.Replace(isSpace, rep); err != nil {
			return nil, err
		}
		switch m.Prepend {
		case PrependAlways:
			if !strings.HasPrefix(s.Normalized, rep) {
				s.Prepend(rep)
			}
		case PrependFirst:
			if start, _ := s.OffsetsOriginal(); !strings.HasPrefix(s.Normalized, rep) && start == 0 {
				s.Prepend(rep)
			}
		}
		if m.Split {
			return s.Split(isRep, normstr.MergedWithNext)
		}
		return []*normstr.String{s}, nil
	})
}

// Sequence runs pre-tokenisers one after the other.
type Sequence []PreTokenizer

// PreTokenize implements PreTokenizer.
func (q Sequence) PreTokenize(p *normstr.PreTokenized) error {
	for _, t := range q {
		if err := t.PreTokenize(p); err != nil {
			return err
		}
	}
	return nil
}
