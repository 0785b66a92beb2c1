package uprops

import (
	"unicode"
)

// IsWhitespace is Rust's char::is_whitespace (the White_Space property).
func IsWhitespace(r rune) bool {
	if r < 0x80 {
		return r == ' ' || (r >= '\t' && r <= '\r')
	}
	return unicode.Is(unicode.White_Space, r)
}

// IsBertWhitespace is the BERT normaliser's whitespace: tab, newline,
// carriage return and Rust's whitespace.
func IsBertWhitespace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || IsWhitespace(r)
}

// IsBertControl is the BERT normaliser's control character: any "other"
// category (Cc, Cf, Co, Cn) except tab, newline and carriage return.
func IsBertControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return isOther(r)
}

func isOther(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co) != unicode.Is(otherFlip, r)
}

// IsChineseChar is BERT's "Chinese character": the CJK ideograph blocks.
func IsChineseChar(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B920 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// IsPunctuation is the punctuation of BertPreTokenizer and Punctuation:
// ASCII punctuation or a character of a P category.
func IsPunctuation(r rune) bool {
	if r < 0x80 {
		return (r >= '!' && r <= '/') || (r >= ':' && r <= '@') || (r >= '[' && r <= '`') || (r >= '{' && r <= '~')
	}
	return unicode.IsPunct(r) != unicode.Is(punctuationFlip, r)
}

// IsMarkNonspacing is the Mn category, which BERT's accent stripping drops.
func IsMarkNonspacing(r rune) bool {
	return r >= 0x300 && unicode.Is(unicode.Mn, r) != unicode.Is(mnFlip, r)
}

// IsCombiningMark is the M categories, which StripAccents drops.
func IsCombiningMark(r rune) bool {
	return r >= 0x300 && unicode.IsMark(r) != unicode.Is(combiningFlip, r)
}

// IsNumeric is Rust's char::is_numeric (Nd, Nl, No).
func IsNumeric(r rune) bool {
	if r < 0x80 {
		return r >= '0' && r <= '9'
	}
	return unicode.IsNumber(r) != unicode.Is(numericFlip, r)
}

// IsAlphabetic is Rust's char::is_alphabetic (the Alphabetic property).
func IsAlphabetic(r rune) bool {
	if r < 0x80 {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Other_Alphabetic, r) || unicode.Is(unicode.Nl, r)
}

// IsWordChar is \w of Rust's regex crate: Alphabetic, marks, decimal
// digits, connector punctuation and Join_Control.
func IsWordChar(r rune) bool {
	if r < 0x80 {
		return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return baseWordChar(r) != unicode.Is(rustWordFlip, r)
}

func baseWordChar(r rune) bool {
	return IsAlphabetic(r) || unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) ||
		unicode.Is(unicode.Join_Control, r)
}

// ToLower appends the lowercase of r as Rust's char::to_lowercase gives it
// (U+0130 becomes two characters).
func ToLower(r rune, out []rune) []rune {
	if r < 0x80 {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(out, r)
	}
	if r == 0x130 {
		return append(out, 'i', 0x307)
	}
	if l, ok := lowerFlip[r]; ok {
		return append(out, l)
	}
	return append(out, unicode.ToLower(r))
}
