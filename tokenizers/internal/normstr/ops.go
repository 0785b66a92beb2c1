package normstr

import (
	"unicode/utf8"
)

// Filter keeps the characters for which keep is true.
func (s *String) Filter(keep func(rune) bool) {
	removed, removedStart := 0, 0
	dest := make([]Change, 0, len(s.Normalized))
	var last rune
	haveLast := false
	for _, c := range s.Normalized {
		if keep(c) {
			if haveLast {
				dest = append(dest, Change{last, -removed})
			} else {
				removedStart = removed
			}
			last, haveLast = c, true
			removed = 0
		} else {
			removed++
		}
	}
	if haveLast {
		dest = append(dest, Change{last, -removed})
	}
	s.Transform(dest, removedStart)
}

// Map replaces every character by f of it.
func (s *String) Map(f func(rune) rune) {
	dest := make([]Change, 0, len(s.Normalized))
	for _, c := range s.Normalized {
		dest = append(dest, Change{f(c), 0})
	}
	s.Transform(dest, 0)
}

// MapMany replaces every character by the characters f returns (at least
// one), the first replacing it and the others inserted after it.
func (s *String) MapMany(f func(rune, []rune) []rune) {
	dest := make([]Change, 0, len(s.Normalized))
	var buf [4]rune
	for _, c := range s.Normalized {
		for i, r := range f(c, buf[:0]) {
			d := 0
			if i > 0 {
				d = 1
			}
			dest = append(dest, Change{r, d})
		}
	}
	s.Transform(dest, 0)
}

// Prepend inserts p before the first character (nothing when empty).
func (s *String) Prepend(p string) {
	if s.Normalized == "" {
		return
	}
	next, n := utf8.DecodeRuneInString(s.Normalized)
	dest := make([]Change, 0, len(p)+1)
	i := 0
	for _, c := range p {
		d := 1
		if i == 0 {
			d = 0
		}
		dest = append(dest, Change{c, d})
		i++
	}
	dest = append(dest, Change{next, 1})
	s.TransformRange(0, n, dest, 0)
}

// Append inserts p after the last character.
func (s *String) Append(p string) {
	if s.Normalized == "" {
		dest := []Change{}
		for _, c := range p {
			dest = append(dest, Change{c, 1})
		}
		s.TransformRange(0, 0, dest, 0)
		return
	}
	prev, n := utf8.DecodeLastRuneInString(s.Normalized)
	dest := []Change{{prev, 0}}
	for _, c := range p {
		dest = append(dest, Change{c, 1})
	}
	s.TransformRange(len(s.Normalized)-n, len(s.Normalized), dest, 0)
}

// Strip removes leading and/or trailing whitespace (Rust's char::is_whitespace),
// with tokenizers' own bookkeeping.
func (s *String) Strip(left, right bool, isSpace func(rune) bool) {
	rs := []rune(s.Normalized)
	leading, trailing := 0, 0
	if left {
		for leading < len(rs) && isSpace(rs[leading]) {
			leading++
		}
	}
	if right {
		for trailing < len(rs) && isSpace(rs[len(rs)-1-trailing]) {
			trailing++
		}
	}
	if leading == 0 && trailing == 0 {
		return
	}
	count := len(rs)
	dest := make([]Change, 0, count)
	for i, c := range rs {
		switch {
		case i < leading || i >= count-trailing:
		// tokenizers compares the character index with the byte length here;
		// the quirk is kept so that offsets match.
		case i == len(s.Normalized)-trailing-1:
			dest = append(dest, Change{c, -trailing})
		default:
			dest = append(dest, Change{c, 0})
		}
	}
	s.Transform(dest, leading)
}

// Replace replaces every match of p by content.
func (s *String) Replace(p Pattern, content string) error {
	matches, err := p.FindMatches(s.Normalized)
	if err != nil {
		return err
	}
	var nb []byte
	var na []Align
	last := 0
	for _, m := range matches {
		if !m.IsMatch {
			continue
		}
		nb = append(nb, s.Normalized[last:m.Start]...)
		na = append(na, s.Align[last:m.Start]...)
		// Every character of content is inserted after the removed match:
		// it takes the alignment of the byte before the match end.
		offset := m.End
		for _, c := range content {
			var al Align
			if offset >= 1 {
				al = s.at(offset - 1)
			}
			n := utf8.RuneLen(c)
			nb = utf8.AppendRune(nb, c)
			for k := 0; k < n; k++ {
				na = append(na, al)
			}
		}
		last = m.End
	}
	nb = append(nb, s.Normalized[last:]...)
	na = append(na, s.Align[last:]...)
	s.Normalized = string(nb)
	s.Align = na
	return nil
}

// Clear empties the normalized string.
func (s *String) Clear() {
	s.Transform(nil, utf8.RuneCountInString(s.Normalized))
}
