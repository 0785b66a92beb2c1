package models

import (
	"container/heap"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

type pair struct{ a, b int }

type merge struct{ rank, id int }

// BPE is byte-pair encoding with ranked merges (GPT-2, RoBERTa, Llama…).
type BPE struct {
	vocab                 map[string]int
	vocabR                map[int]string
	merges                map[pair]merge
	unk                   string
	hasUnk                bool
	prefix, suffix        string
	fuseUnk, byteFallback bool
	ignoreMerges          bool
	byteIDs               [256]int // <0xXX> ids, -1 when absent
	cache                 *cache
}

// BPEConfig is what a tokenizer.json gives a BPE model.
type BPEConfig struct {
	Vocab                   map[string]int
	Merges                  [][2]string
	UnkToken                *string
	ContinuingSubwordPrefix string
	EndOfWordSuffix         string
	FuseUnk, ByteFallback   bool
	IgnoreMerges            bool
}

// NewBPE builds a BPE model; every merge's parts and result must be in the
// vocabulary.
func NewBPE(c BPEConfig) (*BPE, error) {
	m := &BPE{vocab: c.Vocab, vocabR: make(map[int]string, len(c.Vocab)), merges: make(map[pair]merge, len(c.Merges)),
		prefix: c.ContinuingSubwordPrefix, suffix: c.EndOfWordSuffix, fuseUnk: c.FuseUnk,
		byteFallback: c.ByteFallback, ignoreMerges: c.IgnoreMerges, cache: newCache()}
	if c.UnkToken != nil {
		m.unk, m.hasUnk = *c.UnkToken, true
	}
	for tok, id := range c.Vocab {
		m.vocabR[id] = tok
	}
	for i, mg := range c.Merges {
		a, ok := c.Vocab[mg[0]]
		if !ok {
			return nil, fmt.Errorf("merge %d (%q %q): token %q is not in the vocabulary", i, mg[0], mg[1], mg[0])
		}
		b, ok := c.Vocab[mg[1]]
		if !ok {
			return nil, fmt.Errorf("merge %d (%q %q): token %q is not in the vocabulary", i, mg[0], mg[1], mg[1])
		}
		if len(mg[1]) < len(m.prefix) {
			return nil, fmt.Errorf("merge %d (%q %q): the second part is shorter than the continuing subword prefix", i, mg[0], mg[1])
		}
		joined := mg[0] + mg[1][len(m.prefix):]
		id, ok := c.Vocab[joined]
		if !ok {
			return nil, fmt.Errorf("merge %d (%q %q): the merged token %q is not in the vocabulary", i, mg[0], mg[1], joined)
		}
		m.merges[pair{a, b}] = merge{i, id}
	}
	for b := range m.byteIDs {
		m.byteIDs[b] = -1
		if id, ok := c.Vocab[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.byteIDs[b] = id
		}
	}
	return m, nil
}

// VocabSize implements Model.
func (m *BPE) VocabSize() int { return len(m.vocab) }

// TokenToID implements Model.
func (m *BPE) TokenToID(t string) (int, bool) { id, ok := m.vocab[t]; return id, ok }

// IDToToken implements Model.
func (m *BPE) IDToToken(id int) (string, bool) { t, ok := m.vocabR[id]; return t, ok }

type symbol struct {
	id, prev, next, len int
}

type item struct{ pos, rank, id int }

type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].rank != q[j].rank {
		return q[i].rank < q[j].rank
	}
	return q[i].pos < q[j].pos
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (m *BPE) word(w string) ([]symbol, error) {
	syms := make([]symbol, 0, len(w))
	add := func(id, n int) {
		if k := len(syms); k > 0 {
			syms[k-1].next = k
			syms = append(syms, symbol{id, k - 1, -1, n})
		} else {
			syms = append(syms, symbol{id, -1, -1, n})
		}
	}
	unkID, unkLen, haveUnk := 0, 0, false
	var sb strings.Builder
	for i := 0; i < len(w); {
		_, n := utf8.DecodeRuneInString(w[i:])
		s := w[i : i+n]
		if i > 0 && m.prefix != "" || i+n == len(w) && m.suffix != "" {
			sb.Reset()
			if i > 0 {
				sb.WriteString(m.prefix)
			}
			sb.WriteString(s)
			if i+n == len(w) {
				sb.WriteString(m.suffix)
			}
			s = sb.String()
		}
		if id, ok := m.vocab[s]; ok {
			if haveUnk {
				add(unkID, unkLen)
				haveUnk = false
			}
			add(id, n)
			i += n
			continue
		}
		if m.byteFallback {
			all := true
			for k := 0; k < len(s); k++ {
				if m.byteIDs[s[k]] < 0 {
					all = false
					break
				}
			}
			if all {
				for k := 0; k < len(s); k++ {
					add(m.byteIDs[s[k]], 1)
				}
				i += n
				continue
			}
		}
		if m.hasUnk {
			id, ok := m.vocab[m.unk]
			if !ok {
				return nil, fmt.Errorf("unk token %q not found in the vocabulary", m.unk)
			}
			switch {
			case haveUnk && m.fuseUnk:
				unkLen += n
			case haveUnk:
				add(unkID, unkLen)
				unkID, unkLen = id, n
			default:
				unkID, unkLen, haveUnk = id, n, true
			}
		}
		i += n
	}
	if haveUnk {
		add(unkID, unkLen)
	}
	m.mergeAll(syms)
	return syms, nil
}

func (m *BPE) mergeAll(syms []symbol) {
	q := make(queue, 0, len(syms))
	for i := 0; i+1 < len(syms); i++ {
		if mg, ok := m.merges[pair{syms[i].id, syms[i+1].id}]; ok {
			q = append(q, item{i, mg.rank, mg.id})
		}
	}
	heap.Init(&q)
	for q.Len() > 0 {
		top := heap.Pop(&q).(item)
		cur := &syms[top.pos]
		if cur.len == 0 || cur.next == -1 {
			continue
		}
		right := syms[cur.next]
		if mg, ok := m.merges[pair{cur.id, right.id}]; !ok || mg.id != top.id {
			continue
		}
		next := cur.next
		cur.id = top.id
		cur.len += right.len
		cur.next = right.next
		syms[next].len = 0
		if right.next > -1 && right.next < len(syms) {
			syms[right.next].prev = top.pos
		}
		if cur.prev >= 0 {
			if mg, ok := m.merges[pair{syms[cur.prev].id, cur.id}]; ok {
				heap.Push(&q, item{cur.prev, mg.rank, mg.id})
			}
		}
		if cur.next >= 0 && cur.next < len(syms) {
			if mg, ok := m.merges[pair{cur.id, syms[cur.next].id}]; ok {
				heap.Push(&q, item{top.pos, mg.rank, mg.id})
			}
		}
	}
}

// Tokenize implements Model.
func (m *BPE) Tokenize(s string) ([]normstr.Token, error) {
	if s == "" {
		return nil, nil
	}
	if m.ignoreMerges {
		if id, ok := m.vocab[s]; ok {
			return []normstr.Token{{ID: id, Value: s, Start: 0, End: len(s)}}, nil
		}
	}
	if toks, ok := m.cache.get(s); ok {
		return toks, nil
	}
	syms, err := m.word(s)
	if err != nil {
		return nil, err
	}
	out := make([]normstr.Token, 0, len(syms))
	pos := 0
	for _, sy := range syms {
		if sy.len == 0 {
			continue
		}
		out = append(out, normstr.Token{ID: sy.id, Value: m.vocabR[sy.id], Start: pos, End: pos + sy.len})
		pos += sy.len
	}
	m.cache.put(s, out)
	return out, nil
}
