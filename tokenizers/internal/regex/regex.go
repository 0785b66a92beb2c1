// Package regex finds the matches of the regular expressions in a
// tokenizer.json as tokenizers does with Oniguruma: leftmost-first
// backtracking (github.com/dlclark/regexp2, with ^ and $ at line breaks as
// in Oniguruma), empty matches handled as the onig crate's find_iter does,
// and hand-written scanners for the two patterns nearly every byte-level
// tokenizer uses (GPT-2's and Llama 3's), which the tests check against the
// general engine.
package regex

import (
	"fmt"
	"unicode/utf8"

	"github.com/dlclark/regexp2"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// Regex is a compiled pattern.
type Regex struct {
	src  string
	re   *regexp2.Regexp
	scan func(s string, i int) int // a hand-written matcher: the match at i ends there
}

// Compile compiles an Oniguruma pattern.
func Compile(pattern string) (*Regex, error) {
	re, err := regexp2.Compile(rewrite(pattern), regexp2.Multiline)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %w", pattern, err)
	}
	r := &Regex{src: pattern, re: re}
	switch pattern {
	case GPT2Pattern:
		r.scan = scanGPT2
	case Llama3Pattern:
		r.scan = scanLlama3
	}
	return r, nil
}

// General returns the same pattern without its hand-written scanner (for
// tests that compare the two).
func (r *Regex) General() *Regex { return &Regex{src: r.src, re: r.re} }

// String returns the pattern.
func (r *Regex) String() string { return r.src }

// Find returns the [start, end) byte ranges of the successive matches.
func (r *Regex) Find(s string) ([][2]int, error) {
	if r.scan != nil {
		var out [][2]int
		for i := 0; i < len(s); {
			e := r.scan(s, i)
			out = append(out, [2]int{i, e})
			i = e
		}
		return out, nil
	}
	runes := []rune(s)
	byteAt := make([]int, len(runes)+1)
	b := 0
	for i, c := range runes {
		byteAt[i] = b
		b += utf8.RuneLen(c)
	}
	byteAt[len(runes)] = b
	var out [][2]int
	lastEnd, lastMatchEnd := 0, -1
	for lastEnd <= len(runes) {
		m, err := r.re.FindRunesMatchStartingAt(runes, lastEnd)
		if err != nil {
			return nil, fmt.Errorf("regular expression %q: %w", r.src, err)
		}
		if m == nil {
			break
		}
		st, en := m.Index, m.Index+m.Length
		if st == en && en == lastMatchEnd {
			lastEnd++
			continue
		}
		lastEnd, lastMatchEnd = en, en
		out = append(out, [2]int{byteAt[st], byteAt[en]})
		if st == en && en == len(runes) {
			break
		}
	}
	return out, nil
}

// FindMatches implements normstr.Pattern: the matches and the text between
// them, in order.
func (r *Regex) FindMatches(s string) ([]normstr.Match, error) {
	if s == "" {
		return []normstr.Match{{Start: 0, End: 0}}, nil
	}
	found, err := r.Find(s)
	if err != nil {
		return nil, err
	}
	out := make([]normstr.Match, 0, 2*len(found)+1)
	prev := 0
	for _, m := range found {
		if prev != m[0] {
			out = append(out, normstr.Match{Start: prev, End: m[0]})
		}
		out = append(out, normstr.Match{Start: m[0], End: m[1], IsMatch: true})
		prev = m[1]
	}
	if prev != len(s) {
		out = append(out, normstr.Match{Start: prev, End: len(s)})
	}
	return out, nil
}

// QuoteMeta escapes a literal for use in a pattern (regex::escape).
func QuoteMeta(s string) string {
	return regexp2.Escape(s)
}
