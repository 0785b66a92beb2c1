package regex

import (
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// GPT2Pattern is the pre-tokenisation pattern of GPT-2 (tokenizers' ByteLevel).
const GPT2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

// Llama3Pattern is the pattern of Llama 3's Split pre-tokeniser (also GPT-4's cl100k).
const Llama3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

func isL(r rune) bool { return uprops.OnigLetter(r) }
func isN(r rune) bool { return uprops.OnigNumber(r) }
func isS(r rune) bool { return uprops.OnigSpace(r) }

func isOther(r rune) bool { return !isS(r) && !isL(r) && !isN(r) }

func at(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// run returns where the run of characters for which f is true that starts at i ends.
func run(s string, i int, f func(rune) bool) int {
	for i < len(s) {
		c, n := at(s, i)
		if !f(c) {
			break
		}
		i += n
	}
	return i
}

// spaces matches \s+(?!\S)|\s+ at i, where s[i] is whitespace.
func spaces(s string, i int) int {
	j := run(s, i, isS)
	if j == len(s) {
		return j
	}
	last := j
	_, n := utf8.DecodeLastRuneInString(s[:j])
	last -= n
	if last > i {
		return last
	}
	return j
}

func contraction(s string, i int, fold bool) int {
	if s[i] != '\'' {
		return 0
	}
	c1, n1 := at(s, i+1)
	c2, n2 := at(s, i+1+n1)
	lower := func(c rune) rune {
		if fold {
			if c >= 'A' && c <= 'Z' {
				return c + 'a' - 'A'
			}
			if c == 0x17F { // ſ folds to s
				return 's'
			}
		}
		return c
	}
	c1, c2 = lower(c1), lower(c2)
	switch c1 {
	case 's', 't', 'm', 'd':
		return 1 + n1
	case 'r', 'v':
		if c2 == 'e' {
			return 1 + n1 + n2
		}
	case 'l':
		if c2 == 'l' {
			return 1 + n1 + n2
		}
	}
	return 0
}

func scanGPT2(s string, i int) int {
	if n := contraction(s, i, false); n > 0 {
		return i + n
	}
	c, n := at(s, i)
	if c == ' ' {
		if d, _ := at(s, i+n); d >= 0 {
			switch {
			case isL(d):
				return run(s, i+n, isL)
			case isN(d):
				return run(s, i+n, isN)
			case isOther(d):
				return run(s, i+n, isOther)
			}
		}
	}
	switch {
	case isL(c):
		return run(s, i, isL)
	case isN(c):
		return run(s, i, isN)
	case isOther(c):
		return run(s, i, isOther)
	}
	return spaces(s, i)
}

func isCRLF(r rune) bool { return r == '\r' || r == '\n' }

func scanLlama3(s string, i int) int {
	if n := contraction(s, i, true); n > 0 {
		return i + n
	}
	c, n := at(s, i)
	if isL(c) {
		return run(s, i, isL)
	}
	if !isCRLF(c) && !isN(c) {
		if d, _ := at(s, i+n); d >= 0 && isL(d) {
			return run(s, i+n, isL)
		}
	}
	if isN(c) {
		j := i
		for k := 0; k < 3; k++ {
			d, m := at(s, j)
			if d < 0 || !isN(d) {
				break
			}
			j += m
		}
		return j
	}
	start := i
	if c == ' ' {
		if d, _ := at(s, i+n); d >= 0 && isOther(d) {
			start = i + n
			c = d
		}
	}
	if isOther(c) {
		j := run(s, start, isOther)
		return run(s, j, isCRLF)
	}
	// \s*[\r\n]+ : up to the last line break of the whitespace run.
	j := run(s, i, isS)
	for k := j; k > i; {
		d, m := utf8.DecodeLastRuneInString(s[:k])
		if isCRLF(d) {
			return k
		}
		k -= m
	}
	return spaces(s, i)
}
