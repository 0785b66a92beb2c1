package normstr

import (
	"fmt"
	"unicode/utf8"
)

// Align is the byte range of the original string one byte of the
// normalized string comes from.
type Align struct{ Start, End int }

// String is an original string, its normalized form, and for every byte of
// the normalized form the range of the original it comes from (tokenizers'
// NormalizedString). A String cut out of a bigger one keeps Shift, the
// offset of its original inside the whole input.
type String struct {
	Original   string
	Normalized string
	Align      []Align
	Shift      int
}

// New returns s unchanged, each byte aligned with the whole character it
// belongs to.
func New(s string) *String {
	al := make([]Align, len(s))
	for i, r := range s {
		n := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, n = utf8.DecodeRuneInString(s[i:])
		}
		for k := 0; k < n; k++ {
			al[i+k] = Align{i, i + n}
		}
	}
	return &String{Original: s, Normalized: s, Align: al}
}

// Change is one character of a transformation's output: D is 1 for an
// inserted character, 0 for one that replaces the next input character, and
// -N for one that replaces the next input character and removes the N after
// it.
type Change struct {
	R rune
	D int
}

// Failure is the panic value of an operation that tokenizers itself would
// abort (it panics there too); the pipeline turns it into an error.
type Failure struct{ Msg string }

func fail(format string, args ...any) {
	panic(Failure{fmt.Sprintf(format, args...)})
}

// OffsetsOriginal returns the range of the whole input this String covers.
func (s *String) OffsetsOriginal() (int, int) {
	return s.Shift, s.Shift + len(s.Original)
}

// Transform replaces the whole normalized string by dest, initialOffset
// being the number of characters removed at its start.
func (s *String) Transform(dest []Change, initialOffset int) {
	start, end, ok := s.originalToNormalized(0, len(s.Original))
	if !ok {
		return
	}
	s.TransformRange(start, end, dest, initialOffset)
}

// TransformRange replaces the normalized bytes [start, end) by dest, keeping
// the alignments as tokenizers' transform_range does.
func (s *String) TransformRange(start, end int, dest []Change, initialOffset int) {
	replaced := s.Normalized[start:end]
	ri := 0 // byte index in replaced
	for k := 0; k < initialOffset && ri < len(replaced); k++ {
		_, n := utf8.DecodeRuneInString(replaced[ri:])
		ri += n
	}
	offset := start + ri
	aligns := make([]Align, 0, end-start)
	buf := make([]byte, 0, end-start)
	for _, c := range dest {
		var al Align
		if c.D > 0 {
			if offset >= 1 {
				al = s.at(offset - 1)
			}
		} else {
			al = s.at(offset)
		}
		size := 0
		if c.D <= 0 && ri < len(replaced) {
			_, size = utf8.DecodeRuneInString(replaced[ri:])
			ri += size
		}
		removed := 0
		for k := 0; k < -c.D && ri < len(replaced); k++ {
			_, n := utf8.DecodeRuneInString(replaced[ri:])
			ri += n
			removed += n
		}
		offset += size + removed
		n := utf8.RuneLen(c.R)
		buf = utf8.AppendRune(buf, c.R)
		for k := 0; k < n; k++ {
			aligns = append(aligns, al)
		}
	}
	na := make([]Align, 0, len(s.Align)-(end-start)+len(aligns))
	na = append(append(append(na, s.Align[:start]...), aligns...), s.Align[end:]...)
	s.Align = na
	s.Normalized = s.Normalized[:start] + string(buf) + s.Normalized[end:]
}

func (s *String) at(i int) Align {
	if i < 0 || i >= len(s.Align) {
		fail("alignment index %d out of range (len %d)", i, len(s.Align))
	}
	return s.Align[i]
}

// originalToNormalized converts a range of the original string to the
// normalized one (convert_offsets with Range::Original).
func (s *String) originalToNormalized(start, end int) (int, int, bool) {
	if start == end {
		return start, end, true
	}
	if start > end {
		return 0, 0, false
	}
	if len(s.Original) == 0 && start == 0 && end == 0 {
		return 0, len(s.Normalized), true
	}
	ns, ne := -1, -1
	for i, a := range s.Align {
		if end < a.End {
			break
		}
		if ns < 0 && start <= a.Start && a.Start != a.End {
			ns = i
		}
		ne = i + 1
	}
	switch {
	case ns >= 0 && ne < 0:
		return ns, ns, true
	case ns < 0 && ne >= 0:
		return ne, ne, true
	case ns >= 0:
		return ns, ne, true
	}
	return 0, 0, false
}

// NormalizedToOriginal converts a range of the normalized string to the
// original one (convert_offsets with Range::Normalized).
func (s *String) NormalizedToOriginal(start, end int) (int, int, bool) {
	if start == end {
		return start, end, true
	}
	if start > end {
		return 0, 0, false
	}
	if len(s.Normalized) == 0 && start == 0 && end == 0 {
		return 0, len(s.Original), true
	}
	if end > len(s.Align) {
		return 0, 0, false
	}
	return s.Align[start].Start, s.Align[end-1].End, true
}

// Slice returns the part of s whose normalized bytes are [start, end).
func (s *String) Slice(start, end int) *String {
	if !boundary(s.Normalized, start) || !boundary(s.Normalized, end) {
		fail("slice %d..%d is not on character boundaries", start, end)
	}
	os, oe, ok := s.NormalizedToOriginal(start, end)
	if !ok {
		fail("slice %d..%d has no original range", start, end)
	}
	orig := ""
	if os <= oe && oe <= len(s.Original) && boundary(s.Original, os) && boundary(s.Original, oe) {
		orig = s.Original[os:oe]
	}
	al := make([]Align, end-start)
	for i, a := range s.Align[start:end] {
		al[i] = Align{a.Start - os, a.End - os}
	}
	return &String{Original: orig, Normalized: s.Normalized[start:end], Align: al, Shift: s.Shift + os}
}

func boundary(s string, i int) bool {
	return i == 0 || i == len(s) || (i > 0 && i < len(s) && utf8.RuneStart(s[i]))
}
