package models

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// Unigram is SentencePiece's unigram language model: the segmentation with
// the best total score (Viterbi), unknown characters fused, optional byte
// fallback (T5, ALBERT, XLM-R…).
type Unigram struct {
	pieces       []string
	scores       []float64
	ids          map[string]int
	trie         *trieNode
	minScore     float64
	unkID        int // -1: none
	byteFallback bool
	byteIDs      [256]int
	cache        *cache
}

type trieNode struct {
	leaf     bool
	children map[byte]*trieNode
}

const unkPenalty = 10.0

// NewUnigram builds a Unigram model from (piece, score) pairs; unkID < 0
// means no unknown token.
func NewUnigram(pieces []string, scores []float64, unkID int, byteFallback bool) (*Unigram, error) {
	if unkID >= 0 {
		if len(pieces) == 0 {
			return nil, fmt.Errorf("Unigram: the vocabulary is empty but at least <unk> is needed")
		}
		if unkID >= len(pieces) {
			return nil, fmt.Errorf("Unigram: unk_id %d is larger than the vocabulary (%d pieces)", unkID, len(pieces))
		}
	}
	u := &Unigram{pieces: pieces, scores: scores, ids: make(map[string]int, len(pieces)), trie: &trieNode{},
		unkID: unkID, byteFallback: byteFallback, cache: newCache()}
	u.minScore = math.Inf(1)
	for id, p := range pieces {
		u.ids[p] = id
		n := u.trie
		for i := 0; i < len(p); i++ {
			if n.children == nil {
				n.children = map[byte]*trieNode{}
			}
			c, ok := n.children[p[i]]
			if !ok {
				c = &trieNode{}
				n.children[p[i]] = c
			}
			n = c
		}
		n.leaf = true
		if scores[id] < u.minScore {
			u.minScore = scores[id]
		}
	}
	for b := range u.byteIDs {
		u.byteIDs[b] = -1
		if id, ok := u.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			u.byteIDs[b] = id
		}
	}
	return u, nil
}

// VocabSize implements Model.
func (u *Unigram) VocabSize() int { return len(u.pieces) }

// TokenToID implements Model.
func (u *Unigram) TokenToID(t string) (int, bool) { id, ok := u.ids[t]; return id, ok }

// IDToToken implements Model.
func (u *Unigram) IDToToken(id int) (string, bool) {
	if id < 0 || id >= len(u.pieces) {
		return "", false
	}
	return u.pieces[id], true
}

type bestNode struct {
	id      int
	score   float64
	startAt int // -1: none
}

// encode returns the best segmentation's pieces (encode_optimized).
func (u *Unigram) encode(s string) ([]string, error) {
	size := len(s)
	unkScore := u.minScore - unkPenalty
	best := make([]bestNode, size+1)
	for i := range best {
		best[i].startAt = -1
	}
	for start := 0; start < size; {
		till := best[start].score
		_, mblen := utf8.DecodeRuneInString(s[start:])
		hasSingle := false
		n := u.trie
		for k := start; k < size; k++ {
			n = n.children[s[k]]
			if n == nil {
				break
			}
			if !n.leaf {
				continue
			}
			end := k + 1
			id := u.ids[s[start:end]]
			cand := u.scores[id] + till
			if t := &best[end]; t.startAt < 0 || cand > t.score {
				t.score, t.startAt, t.id = cand, start, id
			}
			if end-start == mblen {
				hasSingle = true
			}
		}
		if !hasSingle {
			t := &best[start+mblen]
			cand := unkScore + till
			if t.startAt < 0 || cand > t.score {
				if u.unkID < 0 {
					return nil, fmt.Errorf("Unigram: encountered an unknown token but unk_id is missing")
				}
				t.score, t.startAt, t.id = cand, start, u.unkID
			}
		}
		start += mblen
	}
	var out []string
	var fused []string
	for end := size; end > 0; {
		nd := best[end]
		if nd.id == u.unkID {
			fused = append(fused, s[nd.startAt:end])
		} else {
			if len(fused) > 0 {
				out = append(out, joinReversed(fused))
				fused = fused[:0]
			}
			out = append(out, s[nd.startAt:end])
		}
		end = nd.startAt
	}
	if len(fused) > 0 {
		out = append(out, joinReversed(fused))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func joinReversed(parts []string) string {
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return b.String()
}

// Tokenize implements Model.
func (u *Unigram) Tokenize(s string) ([]normstr.Token, error) {
	if s == "" {
		return nil, nil
	}
	if toks, ok := u.cache.get(s); ok {
		return toks, nil
	}
	pieces, err := u.encode(s)
	if err != nil {
		return nil, err
	}
	out := make([]normstr.Token, 0, len(pieces))
	offset := 0
	for _, p := range pieces {
		n := len(p)
		id, ok := u.ids[p]
		if !ok {
			if u.byteFallback {
				all := true
				for k := 0; k < n; k++ {
					if u.byteIDs[p[k]] < 0 {
						all = false
						break
					}
				}
				if all {
					for k := 0; k < n; k++ {
						out = append(out, normstr.Token{ID: u.byteIDs[p[k]], Value: fmt.Sprintf("<0x%02X>", p[k]), Start: offset, End: offset + n})
					}
					offset += n
					continue
				}
			}
			if u.unkID < 0 {
				return nil, fmt.Errorf("Unigram: encountered an unknown token but unk_id is missing")
			}
			id = u.unkID
		}
		out = append(out, normstr.Token{ID: id, Value: p, Start: offset, End: offset + n})
		offset += n
	}
	u.cache.put(s, out)
	return out, nil
}
