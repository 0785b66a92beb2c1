package regex

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// Oniguruma's \w, \p{L}, \p{N}, \p{P} and \p{S} are not regexp2's: regexp2 leaves
// spacing and enclosing marks out of \w, and its tables are Go's Unicode
// 15 where Oniguruma's are Unicode 16. rewrite replaces these escapes by
// explicit classes of the code points uprops gives (checked against
// tokenizers for every code point).

// classRanges returns f's code points as the inside of a character class.
func classRanges(f func(rune) bool) string {
	var b strings.Builder
	for r := rune(0); r <= utf8.MaxRune; {
		if (r >= 0xD800 && r <= 0xDFFF) || !f(r) {
			r++
			continue
		}
		s := r
		for r+1 <= utf8.MaxRune && !(r+1 >= 0xD800 && r+1 <= 0xDFFF) && f(r+1) {
			r++
		}
		b.WriteString(classChar(s))
		if r > s {
			b.WriteByte('-')
			b.WriteString(classChar(r))
		}
		r++
	}
	return b.String()
}

func classChar(r rune) string {
	switch {
	case r < 0x20 || r == 0x7f:
		return `\x` + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&15])
	case strings.ContainsRune(`\]-[^`, r):
		return `\` + string(r)
	}
	return string(r)
}

var escapes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		`\w`:    classRanges(uprops.OnigWord),
		`\p{L}`: classRanges(uprops.OnigLetter),
		`\p{N}`: classRanges(uprops.OnigNumber),
		`\p{P}`: classRanges(uprops.OnigPunct),
		`\p{S}`: classRanges(uprops.OnigSymbol),
	}
})

// rewrite replaces \w, \W and \p{X}, \P{X} for X in L, N, P, S by explicit
// classes (negated escapes inside a class are left to regexp2).
func rewrite(pattern string) string {
	if !strings.Contains(pattern, `\w`) && !strings.Contains(pattern, `\W`) && !strings.Contains(pattern, `\p{`) && !strings.Contains(pattern, `\P{`) {
		return pattern
	}
	esc := escapes()
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			rest := pattern[i:]
			done := false
			for key, ranges := range esc {
				neg := strings.ToUpper(key[:2]) + key[2:]
				if key == `\w` {
					neg = `\W`
				}
				switch {
				case strings.HasPrefix(rest, key):
					if inClass {
						b.WriteString(ranges)
					} else {
						b.WriteString("[" + ranges + "]")
					}
					i += len(key) - 1
					done = true
				case strings.HasPrefix(rest, neg) && !inClass:
					b.WriteString("[^" + ranges + "]")
					i += len(neg) - 1
					done = true
				}
				if done {
					break
				}
			}
			if !done {
				b.WriteString(pattern[i : i+2])
				i++
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(pattern[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
			if strings.HasPrefix(pattern[i+1:], "]") { // a leading ] is literal
				b.WriteString(`\]`)
				i++
			}
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
