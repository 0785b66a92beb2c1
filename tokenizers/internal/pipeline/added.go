package pipeline

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/models"
	"github.com/goaccel/goaccel/tokenizers/internal/normalizers"
	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/uprops"
)

// AddedToken is a token added on top of the model's vocabulary, with the
// flags that say how it is matched in the input.
type AddedToken struct {
	Content                                         string
	SingleWord, LStrip, RStrip, Normalized, Special bool
}

// added is tokenizers' AddedVocabulary: added tokens are found in the input
// before the model sees it, leftmost-longest, those with normalized=false in
// the raw text and the others in the normalised text.
type added struct {
	ids       map[string]int
	byID      map[int]AddedToken
	special   map[string]bool
	normCache map[int]string
	raw, norm *matcher
}

func newAdded() *added {
	return &added{ids: map[string]int{}, byID: map[int]AddedToken{}, special: map[string]bool{}, normCache: map[int]string{}}
}

// add registers tokens in order, giving new ones the ids after the model's
// vocabulary, as add_tokens does.
func (a *added) add(tokens []AddedToken, model models.Model, norm normalizers.Normalizer) error {
	size := model.VocabSize()
	next := size
	if len(a.byID) > 0 {
		maxID := -1
		for id := range a.byID {
			maxID = max(maxID, id)
		}
		if maxID >= size || size == 0 {
			next = maxID + 1
		}
	}
	for _, t := range tokens {
		if t.Content == "" {
			continue
		}
		if id, ok := a.ids[t.Content]; ok && a.byID[id] == t {
			continue
		}
		id, ok := a.ids[t.Content]
		if !ok {
			id, ok = model.TokenToID(t.Content)
		}
		if !ok {
			id = next
			next++
		}
		if t.Normalized && norm != nil {
			s := normstr.New(t.Content)
			if err := norm.Normalize(s); err != nil {
				return err
			}
			if s.Normalized != t.Content {
				a.normCache[id] = s.Normalized
			}
		}
		a.ids[t.Content] = id
		if t.Special {
			a.special[t.Content] = true
		}
		a.byID[id] = t
	}
	var raw, norm2 []matchEntry
	for id, t := range a.byID {
		if t.Normalized {
			p := t.Content
			if c, ok := a.normCache[id]; ok {
				p = c
			}
			norm2 = append(norm2, matchEntry{p, id})
		} else {
			raw = append(raw, matchEntry{t.Content, id})
		}
	}
	a.raw, a.norm = newMatcher(raw), newMatcher(norm2)
	return nil
}

// tokenForDecode is the text of an added token when decoding: its
// normalised form when it was normalised on the way in.
func (a *added) tokenForDecode(id int) (string, bool) {
	t, ok := a.byID[id]
	if !ok {
		return "", false
	}
	if c, ok := a.normCache[id]; ok {
		return c, true
	}
	return t.Content, true
}

type matchEntry struct {
	pattern string
	id      int
}

// matcher finds added tokens leftmost-longest (daachorse's LeftmostLongest).
type matcher struct {
	root *mnode
}

type mnode struct {
	id       int // -1: no token ends here
	children map[byte]*mnode
}

func newMatcher(entries []matchEntry) *matcher {
	if len(entries) == 0 {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].id < entries[j].id })
	m := &matcher{root: &mnode{id: -1}}
	for _, e := range entries {
		n := m.root
		for i := 0; i < len(e.pattern); i++ {
			if n.children == nil {
				n.children = map[byte]*mnode{}
			}
			c, ok := n.children[e.pattern[i]]
			if !ok {
				c = &mnode{id: -1}
				n.children[e.pattern[i]] = c
			}
			n = c
		}
		if n.id < 0 {
			n.id = e.id
		}
	}
	return m
}

// longest returns the longest token starting at s[i:].
func (m *matcher) longest(s string, i int) (end, id int, ok bool) {
	n := m.root
	for k := i; k < len(s); k++ {
		n = n.children[s[k]]
		if n == nil {
			break
		}
		if n.id >= 0 {
			end, id, ok = k+1, n.id, true
		}
	}
	return end, id, ok
}

type split struct {
	id         int // -1: not an added token
	start, end int
}

func endsWithWord(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && uprops.IsWordChar(r)
}

func startsWithWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && uprops.IsWordChar(r)
}

// findMatches cuts s into added tokens and the text between them.
func (a *added) findMatches(s string, m *matcher) []split {
	if s == "" {
		return []split{{-1, 0, 0}}
	}
	if m == nil {
		return []split{{-1, 0, len(s)}}
	}
	var out []split
	startOffset := 0
	for i := 0; i < len(s); {
		end, id, ok := m.longest(s, i)
		if !ok {
			i++
			continue
		}
		start, stop := i, end
		i = end
		t := a.byID[id]
		if t.SingleWord {
			startSpace := start == 0 || !endsWithWord(s[:start])
			stopSpace := stop == len(s) || !startsWithWord(s[stop:])
			if !startSpace || !stopSpace {
				continue
			}
		}
		if t.LStrip {
			ns := len(strings.TrimRightFunc(s[:start], uprops.IsWhitespace))
			start = max(ns, startOffset)
		}
		if t.RStrip {
			rest := s[stop:]
			stop += len(rest) - len(strings.TrimLeftFunc(rest, uprops.IsWhitespace))
		}
		if startOffset < start {
			out = append(out, split{-1, startOffset, start})
		}
		out = append(out, split{id, start, stop})
		startOffset = stop
	}
	if startOffset != len(s) {
		out = append(out, split{-1, startOffset, len(s)})
	}
	return out
}

func (a *added) splitWith(s *normstr.String, m *matcher) []normstr.Piece {
	ms := a.findMatches(s.Normalized, m)
	out := make([]normstr.Piece, len(ms))
	for i, sp := range ms {
		part := s.Slice(sp.start, sp.end)
		out[i].S = part
		if sp.id >= 0 {
			out[i].Tokens = []normstr.Token{{ID: sp.id, Value: part.Normalized, Start: 0, End: len(part.Normalized)}}
			out[i].Done = true
		}
	}
	return out
}

// extractAndNormalize finds the added tokens of text and normalises the rest.
func (a *added) extractAndNormalize(norm normalizers.Normalizer, text string) *normstr.PreTokenized {
	p := normstr.NewPreTokenized(normstr.New(text))
	_ = p.Split(func(_ int, s *normstr.String) ([]normstr.Piece, error) {
		return a.splitWith(s, a.raw), nil
	})
	_ = p.Split(func(_ int, s *normstr.String) ([]normstr.Piece, error) {
		if norm != nil {
			_ = norm.Normalize(s) // tokenizers ignores a normaliser's error here too
		}
		return a.splitWith(s, a.norm), nil
	})
	return p
}
