package uprops

import "unicode"

// OnigLetter is \p{L} of Oniguruma (the regular expressions of tokenizer.json).
func OnigLetter(r rune) bool {
	if r < 0x80 {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return baseOnigLetter(r) != unicode.Is(onigLetterFlip, r)
}

// OnigNumber is \p{N} of Oniguruma.
func OnigNumber(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9'
	}
	return baseOnigNumber(r) != unicode.Is(onigNumberFlip, r)
}

// OnigSpace is \s of Oniguruma (White_Space).
func OnigSpace(r rune) bool { return IsWhitespace(r) }

// OnigWord is \w of Oniguruma: letters, marks, decimal digits, connector
// punctuation.
func OnigWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return baseOnigWord(r) != unicode.Is(onigWordFlip, r)
}

func baseOnigLetter(r rune) bool { return unicode.IsLetter(r) }
func baseOnigNumber(r rune) bool { return unicode.IsNumber(r) }
func baseOnigWord(r rune) bool   { return unicode.In(r, unicode.L, unicode.M, unicode.Nd, unicode.Pc) }

// OnigPunct is \p{P} of Oniguruma.
func OnigPunct(r rune) bool { return unicode.IsPunct(r) != unicode.Is(onigPunctFlip, r) }

// OnigSymbol is \p{S} of Oniguruma.
func OnigSymbol(r rune) bool { return unicode.IsSymbol(r) != unicode.Is(onigSymbolFlip, r) }
