package normstr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Match is one piece of a string cut by a Pattern: the bytes [Start, End)
// and whether they matched. A Pattern's matches cover the string in order.
type Match struct {
	Start, End int
	IsMatch    bool
}

// Pattern finds where a string is to be cut.
type Pattern interface {
	FindMatches(s string) ([]Match, error)
}

// RunePattern matches every character for which the function is true, one
// match per character.
type RunePattern func(rune) bool

// FindMatches implements Pattern.
func (f RunePattern) FindMatches(s string) ([]Match, error) {
	if s == "" {
		return []Match{{0, 0, false}}, nil
	}
	var out []Match
	last := 0
	for i, c := range s {
		if f(c) {
			if last < i {
				out = append(out, Match{last, i, false})
			}
			n := utf8.RuneLen(c)
			out = append(out, Match{i, i + n, true})
			last = i + n
		}
	}
	if last < len(s) {
		out = append(out, Match{last, len(s), false})
	}
	return out, nil
}

// LiteralPattern matches every non-overlapping occurrence of a string, from
// the left. The empty string matches nothing.
type LiteralPattern string

// FindMatches implements Pattern.
func (p LiteralPattern) FindMatches(s string) ([]Match, error) {
	if p == "" {
		return []Match{{0, utf8.RuneCountInString(s), false}}, nil
	}
	if s == "" {
		return []Match{{0, 0, false}}, nil
	}
	var out []Match
	prev := 0
	for i := 0; i <= len(s)-len(p); {
		j := strings.Index(s[i:], string(p))
		if j < 0 {
			break
		}
		start := i + j
		if prev != start {
			out = append(out, Match{prev, start, false})
		}
		out = append(out, Match{start, start + len(p), true})
		prev = start + len(p)
		i = prev
	}
	if prev != len(s) {
		out = append(out, Match{prev, len(s), false})
	}
	return out, nil
}

// Invert flips whether each piece matched.
type Invert struct{ P Pattern }

// FindMatches implements Pattern.
func (v Invert) FindMatches(s string) ([]Match, error) {
	m, err := v.P.FindMatches(s)
	for i := range m {
		m[i].IsMatch = !m[i].IsMatch
	}
	return m, err
}

// Behavior says what Split does with the matched delimiters.
type Behavior int

// The delimiter behaviours of tokenizers' SplitDelimiterBehavior.
const (
	Removed Behavior = iota
	Isolated
	MergedWithPrevious
	MergedWithNext
	Contiguous
)

// ParseBehavior reads the names tokenizer.json uses.
func ParseBehavior(name string) (Behavior, error) {
	switch name {
	case "Removed", "removed":
		return Removed, nil
	case "Isolated", "isolated":
		return Isolated, nil
	case "MergedWithPrevious", "merged_with_previous":
		return MergedWithPrevious, nil
	case "MergedWithNext", "merged_with_next":
		return MergedWithNext, nil
	case "Contiguous", "contiguous":
		return Contiguous, nil
	}
	return 0, fmt.Errorf("unknown split behavior %q (want removed, isolated, merged_with_previous, merged_with_next or contiguous)", name)
}

// Split cuts s where p matches.
func (s *String) Split(p Pattern, b Behavior) ([]*String, error) {
	matches, err := p.FindMatches(s.Normalized)
	if err != nil {
		return nil, err
	}
	type piece struct {
		start, end int
		remove     bool
	}
	var pieces []piece
	switch b {
	case Isolated:
		for _, m := range matches {
			pieces = append(pieces, piece{m.Start, m.End, false})
		}
	case Removed:
		for _, m := range matches {
			pieces = append(pieces, piece{m.Start, m.End, m.IsMatch})
		}
	case Contiguous:
		prev := false
		for _, m := range matches {
			if m.IsMatch == prev && len(pieces) > 0 {
				pieces[len(pieces)-1].end = m.End
			} else {
				pieces = append(pieces, piece{m.Start, m.End, false})
			}
			prev = m.IsMatch
		}
	case MergedWithPrevious:
		prev := false
		for _, m := range matches {
			if m.IsMatch && !prev && len(pieces) > 0 {
				pieces[len(pieces)-1].end = m.End
			} else {
				pieces = append(pieces, piece{m.Start, m.End, false})
			}
			prev = m.IsMatch
		}
	case MergedWithNext:
		prev := false
		for i := len(matches) - 1; i >= 0; i-- {
			m := matches[i]
			if m.IsMatch && !prev && len(pieces) > 0 {
				pieces[len(pieces)-1].start = m.Start
			} else {
				pieces = append(pieces, piece{m.Start, m.End, false})
			}
			prev = m.IsMatch
		}
		for i, j := 0, len(pieces)-1; i < j; i, j = i+1, j-1 {
			pieces[i], pieces[j] = pieces[j], pieces[i]
		}
	}
	out := make([]*String, 0, len(pieces))
	for _, pc := range pieces {
		if !pc.remove {
			out = append(out, s.Slice(pc.start, pc.end))
		}
	}
	return out, nil
}
