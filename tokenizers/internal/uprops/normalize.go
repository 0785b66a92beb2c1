package uprops

import (
	"sort"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Change is one output character of a normalisation and how it relates to
// the input (normstr.Change's meaning: 0 replaces, 1 inserts, -N removes N).
type Change struct {
	R rune
	D int
}

const (
	hangulS = 0xAC00
	hangulL = 0x1100
	hangulV = 0x1161
	hangulT = 0x11A7
	countL  = 19
	countV  = 21
	countT  = 28
	countN  = countV * countT
	countS  = countL * countN
)

// CCC is the canonical combining class as tokenizers' normaliser sees it
// (Unicode 9.0 tables: characters assigned later have class 0).
func CCC(r rune) uint8 {
	if r < 0x300 || unicode.Is(cccZero, r) {
		return 0
	}
	var b [4]byte
	n := utf8.EncodeRune(b[:], r)
	return norm.NFD.Properties(b[:n]).CCC()
}

// decompose appends the full canonical (or compatibility) decomposition of r.
func decompose(r rune, compat bool, out []rune) []rune {
	if r < 0xA0 {
		return append(out, r)
	}
	if r >= hangulS && r < hangulS+countS {
		s := r - hangulS
		out = append(out, hangulL+s/countN, hangulV+(s%countN)/countT)
		if t := s % countT; t != 0 {
			out = append(out, hangulT+t)
		}
		return out
	}
	if unicode.Is(decompNone, r) {
		return append(out, r)
	}
	var b [4]byte
	n := utf8.EncodeRune(b[:], r)
	f := norm.NFD
	if compat {
		f = norm.NFKD
	}
	d := f.Properties(b[:n]).Decomposition()
	if d == nil {
		return append(out, r)
	}
	for len(d) > 0 {
		c, k := utf8.DecodeRune(d)
		out = append(out, c)
		d = d[k:]
	}
	return out
}

type pending struct {
	ccc uint8
	r   rune
	d   int
}

// Decompose is NFD (or NFKD with compat) of s with the change of every
// output character, as the unicode-normalization-alignments crate that
// tokenizers uses computes them: the first character of a decomposition
// replaces the input character, the others are inserted, and canonical
// reordering moves the changes along with their characters.
func Decompose(s string, compat bool, out []Change) []Change {
	var buf []pending
	ready := 0 // buf[:ready] is sorted and may be emitted
	var tmp [8]rune
	flush := func() {
		p := buf[ready:]
		sort.SliceStable(p, func(i, j int) bool { return p[i].ccc < p[j].ccc })
		ready = len(buf)
	}
	for _, r := range s {
		for i, d := range decompose(r, compat, tmp[:0]) {
			c := CCC(d)
			if c == 0 {
				flush()
				for _, q := range buf[:ready] {
					out = append(out, Change{q.r, q.d})
				}
				buf, ready = buf[:0], 0
			}
			ch := 1
			if i == 0 {
				ch = 0
			}
			buf = append(buf, pending{c, d, ch})
		}
	}
	flush()
	for _, q := range buf {
		out = append(out, Change{q.r, q.d})
	}
	return out
}

// compose returns the primary composite of a and b, if any.
func compose(a, b rune) (rune, bool) {
	if a >= hangulL && a < hangulL+countL && b >= hangulV && b < hangulV+countV {
		return hangulS + ((a-hangulL)*countV+(b-hangulV))*countT, true
	}
	if a >= hangulS && a < hangulS+countS && (a-hangulS)%countT == 0 && b > hangulT && b < hangulT+countT {
		return a + (b - hangulT), true
	}

	var buf [8]byte
	n := utf8.EncodeRune(buf[:], a)
	n += utf8.EncodeRune(buf[n:], b)
	out := norm.NFC.Bytes(buf[:n])
	c, k := utf8.DecodeRune(out)
	if k != len(out) || c == a || unicode.Is(decompNone, c) {
		return 0, false
	}
	return c, true
}

// Compose is NFC (or NFKC with compat) of s with the change of every output
// character, as the alignments crate's Recompositions computes them.
func Compose(s string, compat bool) []Change {
	dec := Decompose(s, compat, nil)
	out := make([]Change, 0, len(dec))
	var buf []Change
	var composee Change
	haveComposee := false
	lastCCC := -1 // none
	for _, ch := range dec {
		cc := int(CCC(ch.R))
		if !haveComposee {
			if cc != 0 {
				out = append(out, ch)
				continue
			}
			composee, haveComposee = ch, true
			continue
		}
		if lastCCC < 0 {
			if r, ok := compose(composee.R, ch.R); ok {
				composee = Change{r, composee.D + ch.D - 1}
				continue
			}
			if cc == 0 {
				out = append(out, composee)
				composee = ch
				continue
			}
			buf = append(buf, ch)
			lastCCC = cc
			continue
		}
		if lastCCC >= cc {
			if cc == 0 {
				out = append(out, composee)
				out = append(out, buf...)
				buf = buf[:0]
				composee = ch
				lastCCC = -1
				continue
			}
			buf = append(buf, ch)
			lastCCC = cc
			continue
		}
		if r, ok := compose(composee.R, ch.R); ok {
			composee = Change{r, composee.D + ch.D - 1}
			continue
		}
		buf = append(buf, ch)
		lastCCC = cc
	}
	if haveComposee {
		out = append(out, composee)
	}
	return append(out, buf...)
}
