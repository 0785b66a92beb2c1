package models

import (
	"fmt"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// WordPiece is greedy longest-match-first subword tokenisation (BERT).
type WordPiece struct {
	vocab    map[string]int
	vocabR   map[int]string
	unk      string
	prefix   string
	maxChars int
}

// NewWordPiece builds a WordPiece model.
func NewWordPiece(vocab map[string]int, unk, prefix string, maxChars int) *WordPiece {
	w := &WordPiece{vocab: vocab, vocabR: make(map[int]string, len(vocab)), unk: unk, prefix: prefix, maxChars: maxChars}
	for t, id := range vocab {
		w.vocabR[id] = t
	}
	return w
}

// VocabSize implements Model.
func (w *WordPiece) VocabSize() int { return len(w.vocab) }

// TokenToID implements Model.
func (w *WordPiece) TokenToID(t string) (int, bool) { id, ok := w.vocab[t]; return id, ok }

// IDToToken implements Model.
func (w *WordPiece) IDToToken(id int) (string, bool) { t, ok := w.vocabR[id]; return t, ok }

func (w *WordPiece) unknown(s string) ([]normstr.Token, error) {
	id, ok := w.vocab[w.unk]
	if !ok {
		return nil, fmt.Errorf("WordPiece: unk token %q is not in the vocabulary", w.unk)
	}
	return []normstr.Token{{ID: id, Value: w.unk, Start: 0, End: len(s)}}, nil
}

// Tokenize implements Model.
func (w *WordPiece) Tokenize(s string) ([]normstr.Token, error) {
	if utf8.RuneCountInString(s) > w.maxChars {
		return w.unknown(s)
	}
	var out []normstr.Token
	buf := make([]byte, 0, len(w.prefix)+len(s))
	for start := 0; start < len(s); {
		end := len(s)
		found := false
		for start < end {
			var id int
			var ok bool
			if start > 0 {
				buf = append(append(buf[:0], w.prefix...), s[start:end]...)
				id, ok = w.vocab[string(buf)] // no allocation for the lookup
			} else {
				id, ok = w.vocab[s[start:end]]
			}
			if ok {
				val := s[start:end]
				if start > 0 {
					val = string(buf)
				}
				out = append(out, normstr.Token{ID: id, Value: val, Start: start, End: end})
				found = true
				break
			}
			_, n := utf8.DecodeLastRuneInString(s[start:end])
			end -= n
		}
		if !found {
			return w.unknown(s)
		}
		start = end
	}
	return out, nil
}

// WordLevel maps every piece to one id, or to the unknown token.
type WordLevel struct {
	vocab  map[string]int
	vocabR map[int]string
	unk    string
}

// NewWordLevel builds a WordLevel model.
func NewWordLevel(vocab map[string]int, unk string) *WordLevel {
	w := &WordLevel{vocab: vocab, vocabR: make(map[int]string, len(vocab)), unk: unk}
	for t, id := range vocab {
		w.vocabR[id] = t
	}
	return w
}

// VocabSize implements Model.
func (w *WordLevel) VocabSize() int { return len(w.vocab) }

// TokenToID implements Model.
func (w *WordLevel) TokenToID(t string) (int, bool) { id, ok := w.vocab[t]; return id, ok }

// IDToToken implements Model.
func (w *WordLevel) IDToToken(id int) (string, bool) { t, ok := w.vocabR[id]; return t, ok }

// Tokenize implements Model.
func (w *WordLevel) Tokenize(s string) ([]normstr.Token, error) {
	if id, ok := w.vocab[s]; ok {
		return []normstr.Token{{ID: id, Value: s, Start: 0, End: len(s)}}, nil
	}
	if id, ok := w.vocab[w.unk]; ok {
		return []normstr.Token{{ID: id, Value: w.unk, Start: 0, End: len(s)}}, nil
	}
	return nil, fmt.Errorf("WordLevel: unk token %q is not in the vocabulary", w.unk)
}
