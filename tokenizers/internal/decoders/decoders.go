// Package decoders holds tokenizers' decoders (ByteLevel, WordPiece,
// Metaspace, ByteFallback, Fuse, Strip, Replace, BPEDecoder, CTC,
// Sequence), which turn tokens back into text, and Parse, which builds one
// from its tokenizer.json object.
package decoders

import (
	"strings"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// Decoder turns a list of tokens into another (the last step joins them).
type Decoder interface {
	DecodeChain(tokens []string) ([]string, error)
}

// Decode runs d and joins its output.
func Decode(d Decoder, tokens []string) (string, error) {
	out, err := d.DecodeChain(tokens)
	if err != nil {
		return "", err
	}
	return strings.Join(out, ""), nil
}

// ByteLevel maps GPT-2's byte characters back to bytes and the bytes to
// text, invalid UTF-8 replaced as Rust's String::from_utf8_lossy does.
type ByteLevel struct{}

// DecodeChain implements Decoder.
func (ByteLevel) DecodeChain(tokens []string) ([]string, error) {
	var b []byte
	for _, t := range tokens {
		start := len(b)
		ok := true
		for _, c := range t {
			x, found := uprops.RuneToByte[c]
			if !found {
				ok = false
				break
			}
			b = append(b, x)
		}
		if !ok {
			b = append(b[:start], t...)
		}
	}
	return []string{Lossy(b)}, nil
}

// Lossy converts bytes to text replacing each maximal invalid subsequence
// by U+FFFD, as Rust's String::from_utf8_lossy does.
func Lossy(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			sb.WriteByte(b[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			sb.Write(b[i : i+n])
			i += n
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += invalidLen(b[i:])
	}
	return sb.String()
}

// invalidLen is the length of the maximal subpart of an invalid sequence
// starting at b[0] (at least 1).
func invalidLen(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead == 0xE0:
		need, lo = 2, 0xA0
	case lead >= 0xE1 && lead <= 0xEC, lead == 0xEE, lead == 0xEF:
		need = 2
	case lead == 0xED:
		need, hi = 2, 0x9F
	case lead == 0xF0:
		need, lo = 3, 0x90
	case lead >= 0xF1 && lead <= 0xF3:
		need = 3
	case lead == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need; k++ {
		if n >= len(b) {
			return n
		}
		c := b[n]
		if k == 0 {
			if c < lo || c > hi {
				return n
			}
		} else if c < 0x80 || c > 0xBF {
			return n
		}
		n++
	}
	return n
}

// WordPiece joins subwords that carry the prefix and puts a space before
// the others, with BERT's optional clean-up.
type WordPiece struct {
	Prefix  string
	Cleanup bool
}

// DecodeChain implements Decoder.
func (w *WordPiece) DecodeChain(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		if i != 0 {
			if s, ok := strings.CutPrefix(t, w.Prefix); ok {
				t = s
			} else {
				t = " " + t
			}
		}
		if w.Cleanup {
			t = Cleanup(t)
		}
		out[i] = t
	}
	return out, nil
}

var cleanupReplacer = []struct{ old, new string }{
	{" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"}, {" 'm", "'m"},
	{" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
}

// Cleanup is the WordPiece decoder's clean-up of spaces before punctuation
// and in contractions.
func Cleanup(s string) string {
	for _, r := range cleanupReplacer {
		s = strings.ReplaceAll(s, r.old, r.new)
	}
	return s
}

// Metaspace turns the replacement character back into spaces, dropping it
// at the start of the first token unless the prepend scheme is "never".
type Metaspace struct {
	Replacement  rune
	PrependNever bool
}

// DecodeChain implements Decoder.
func (m *Metaspace) DecodeChain(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		var sb strings.Builder
		for _, c := range t {
			if c == m.Replacement {
				if i == 0 && !m.PrependNever {
					continue
				}
				c = ' '
			}
			sb.WriteRune(c)
		}
		out[i] = sb.String()
	}
	return out, nil
}

// ByteFallback turns runs of <0xXX> tokens back into text (one U+FFFD per
// byte when the run is not valid UTF-8).
type ByteFallback struct{}

// DecodeChain implements Decoder.
func (ByteFallback) DecodeChain(tokens []string) ([]string, error) {
	var out []string
	var pending []byte
	flush := func() {
		if len(pending) == 0 {
			return
		}
		if utf8.Valid(pending) {
			out = append(out, string(pending))
		} else {
			for range pending {
				out = append(out, "\uFFFD")
			}
		}
		pending = pending[:0]
	}
	for _, t := range tokens {
		if len(t) == 6 && strings.HasPrefix(t, "<0x") && t[5] == '>' {
			if b, ok := hexByte(t[3:5]); ok {
				pending = append(pending, b)
				continue
			}
		}
		flush()
		out = append(out, t)
	}
	flush()
	return out, nil
}

func hexByte(s string) (byte, bool) {
	if s[0] == '+' { // Rust's from_str_radix takes a sign
		s = s[1:]
	}
	var v byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + c - '0'
		case c >= 'a' && c <= 'f':
			v = v*16 + c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = v*16 + c - 'A' + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// Fuse joins all tokens into one.
type Fuse struct{}

// DecodeChain implements Decoder.
func (Fuse) DecodeChain(tokens []string) ([]string, error) {
	return []string{strings.Join(tokens, "")}, nil
}

// Strip removes up to Start leading and Stop trailing Content characters
// from every token.
type Strip struct {
	Content     rune
	Start, Stop int
}

// DecodeChain implements Decoder.
func (s *Strip) DecodeChain(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		rs := []rune(t)
		startCut := 0
		for k := 0; k < s.Start && k < len(rs); k++ {
			if rs[k] != s.Content {
				break
			}
			startCut = k + 1
		}
		stopCut := len(rs)
		for k := 0; k < s.Stop; k++ {
			idx := len(rs) - k - 1
			if idx < 0 {
				return nil, errStripPanic(len(rs))
			}
			if rs[idx] != s.Content {
				break
			}
			stopCut = idx
		}
		if startCut > stopCut {
			return nil, errStripPanic(len(rs))
		}
		out[i] = string(rs[startCut:stopCut])
	}
	return out, nil
}

type stripError int

func (e stripError) Error() string {
	return "decoder Strip: the token is shorter than the characters to strip (tokenizers panics here: index out of bounds)"
}

func errStripPanic(n int) error { return stripError(n) }

// Replace replaces every match of a pattern in every token.
type Replace struct {
	Pattern normstr.Pattern
	Content string
}

// DecodeChain implements Decoder.
func (r *Replace) DecodeChain(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		ms, err := r.Pattern.FindMatches(t)
		if err != nil {
			return nil, err
		}
		var sb strings.Builder
		for _, m := range ms {
			if m.IsMatch {
				sb.WriteString(r.Content)
			} else {
				sb.WriteString(t[m.Start:m.End])
			}
		}
		out[i] = sb.String()
	}
	return out, nil
}

// BPE replaces the end-of-word suffix by a space (nothing after the last token).
type BPE struct{ Suffix string }

// DecodeChain implements Decoder.
func (b *BPE) DecodeChain(tokens []string) ([]string, error) {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		rep := " "
		if i == len(tokens)-1 {
			rep = ""
		}
		out[i] = strings.ReplaceAll(t, b.Suffix, rep)
	}
	return out, nil
}

// CTC collapses repeated tokens, drops the pad token and turns the word
// delimiter into spaces.
type CTC struct {
	Pad, WordDelimiter string
	Cleanup            bool
}

// DecodeChain implements Decoder.
func (c *CTC) DecodeChain(tokens []string) ([]string, error) {
	var out []string
	for i, t := range tokens {
		if i > 0 && tokens[i-1] == t {
			continue
		}
		t = strings.ReplaceAll(t, c.Pad, "")
		if c.Cleanup {
			t = strings.ReplaceAll(Cleanup(t), c.WordDelimiter, " ")
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// Sequence runs decoders one after the other.
type Sequence []Decoder

// DecodeChain implements Decoder.
func (q Sequence) DecodeChain(tokens []string) ([]string, error) {
	var err error
	for _, d := range q {
		if tokens, err = d.DecodeChain(tokens); err != nil {
			return nil, err
		}
	}
	return tokens, nil
}
