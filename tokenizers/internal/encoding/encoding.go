// Package encoding is tokenizers' Encoding: the ids, tokens, offsets, word
// and type ids and masks of one encoded input, and the operations the
// pipeline applies to it (merging the two sequences of a pair, truncation
// with stride and overflow, padding), each as the Rust library does them.
package encoding

import "fmt"

// Encoding is one encoded input. Words and SequenceIDs use -1 for "none".
type Encoding struct {
	IDs         []int
	TypeIDs     []int
	Tokens      []string
	Words       []int
	Offsets     [][2]int
	Special     []int
	Attention   []int
	Overflowing []*Encoding
	// Ranges maps a sequence id to the token range [start, end) it covers;
	// empty means one sequence covering everything.
	Ranges map[int][2]int
}

// Len is the number of tokens.
func (e *Encoding) Len() int { return len(e.IDs) }

// Clone returns a deep copy.
func (e *Encoding) Clone() *Encoding {
	c := &Encoding{
		IDs: append([]int(nil), e.IDs...), TypeIDs: append([]int(nil), e.TypeIDs...),
		Tokens: append([]string(nil), e.Tokens...), Words: append([]int(nil), e.Words...),
		Offsets: append([][2]int(nil), e.Offsets...), Special: append([]int(nil), e.Special...),
		Attention: append([]int(nil), e.Attention...),
	}
	for _, o := range e.Overflowing {
		c.Overflowing = append(c.Overflowing, o.Clone())
	}
	if e.Ranges != nil {
		c.Ranges = make(map[int][2]int, len(e.Ranges))
		for k, v := range e.Ranges {
			c.Ranges[k] = v
		}
	}
	return c
}

// SetSequenceID marks every token as belonging to sequence id.
func (e *Encoding) SetSequenceID(id int) {
	if e.Ranges == nil {
		e.Ranges = map[int][2]int{}
	}
	e.Ranges[id] = [2]int{0, e.Len()}
}

// SetTypeIDs sets every type id to t.
func (e *Encoding) SetTypeIDs(t int) {
	e.TypeIDs = make([]int, e.Len())
	for i := range e.TypeIDs {
		e.TypeIDs[i] = t
	}
}

// SequenceIDs returns the sequence of every token (-1 for special tokens
// outside both sequences).
func (e *Encoding) SequenceIDs() []int {
	out := make([]int, e.Len())
	for i := range out {
		out[i] = -1
	}
	n := len(e.Ranges)
	if n == 0 {
		n = 1
	}
	for seq := 0; seq < n; seq++ {
		r, ok := e.Ranges[seq]
		if !ok {
			r = [2]int{0, e.Len()}
		}
		for i := r[0]; i < r[1] && i < len(out); i++ {
			out[i] = seq
		}
	}
	return out
}

// Direction is the side truncation or padding acts on.
type Direction int

// Right and Left.
const (
	Right Direction = iota
	Left
)

// ParseDirection reads "left" or "right".
func ParseDirection(s string) (Direction, error) {
	switch s {
	case "right", "Right", "":
		return Right, nil
	case "left", "Left":
		return Left, nil
	}
	return 0, fmt.Errorf("unknown direction %q (want left or right)", s)
}

func (e *Encoding) part(start, stop int) *Encoding {
	return &Encoding{
		IDs: append([]int(nil), e.IDs[start:stop]...), TypeIDs: append([]int(nil), e.TypeIDs[start:stop]...),
		Tokens: append([]string(nil), e.Tokens[start:stop]...), Words: append([]int(nil), e.Words[start:stop]...),
		Offsets: append([][2]int(nil), e.Offsets[start:stop]...), Special: append([]int(nil), e.Special[start:stop]...),
		Attention: append([]int(nil), e.Attention[start:stop]...),
	}
}

// Truncate keeps maxLen tokens and puts the rest, in windows that overlap
// by stride tokens, in Overflowing. stride must be below maxLen.
func (e *Encoding) Truncate(maxLen, stride int, dir Direction) error {
	n := e.Len()
	if maxLen >= n {
		return nil
	}
	if maxLen == 0 {
		o := *e
		*e = Encoding{IDs: []int{}, TypeIDs: []int{}, Tokens: []string{}, Words: []int{}, Offsets: [][2]int{},
			Special: []int{}, Attention: []int{}, Overflowing: []*Encoding{&o}}
		return nil
	}
	if stride >= maxLen {
		return fmt.Errorf("`stride` must be strictly less than `max_len=%d` (note that `max_len` may be shorter than the max length of the original model, as it subtracts the number of special characters", maxLen)
	}
	e.Ranges = nil
	step := maxLen - stride
	var parts [][2]int
	if dir == Right {
		for start := 0; start < n; start += step {
			stop := start + maxLen
			if stop > n {
				stop = n
			}
			parts = append(parts, [2]int{start, stop})
			if stop == n {
				break
			}
		}
	} else {
		for s := n - 1; s >= 0; s -= step {
			stop := s + 1
			start := stop - maxLen
			if start < 0 {
				start = 0
			}
			parts = append(parts, [2]int{start, stop})
			if start == 0 {
				break
			}
		}
	}
	first := e.part(parts[0][0], parts[0][1])
	for _, p := range parts[1:] {
		first.Overflowing = append(first.Overflowing, e.part(p[0], p[1]))
	}
	*e = *first
	return nil
}

// MergeWith appends pair to e; growing shifts pair's offsets after e's last.
func (e *Encoding) MergeWith(pair *Encoding, growing bool) {
	var over []*Encoding
	for _, so := range e.Overflowing {
		n := so.Clone()
		n.MergeWith(pair.Clone(), growing)
		over = append(over, n)
		for _, po := range pair.Overflowing {
			n := so.Clone()
			n.MergeWith(po.Clone(), growing)
			over = append(over, n)
		}
	}
	for _, po := range pair.Overflowing {
		n := e.Clone()
		n.MergeWith(po.Clone(), growing)
		over = append(over, n)
	}
	base := e.Len()
	if len(pair.Ranges) > 0 && e.Ranges == nil {
		e.Ranges = map[int][2]int{}
	}
	for id, r := range pair.Ranges {
		e.Ranges[id] = [2]int{base + r[0], base + r[1]}
	}
	e.IDs = append(e.IDs, pair.IDs...)
	e.TypeIDs = append(e.TypeIDs, pair.TypeIDs...)
	e.Tokens = append(e.Tokens, pair.Tokens...)
	e.Words = append(e.Words, pair.Words...)
	shift := 0
	if growing && len(e.Offsets) > 0 {
		shift = e.Offsets[len(e.Offsets)-1][1]
	}
	for _, o := range pair.Offsets {
		e.Offsets = append(e.Offsets, [2]int{o[0] + shift, o[1] + shift})
	}
	e.Special = append(e.Special, pair.Special...)
	e.Attention = append(e.Attention, pair.Attention...)
	e.Overflowing = over
}

// Merge joins encodings in order.
func Merge(list []*Encoding, growing bool) *Encoding {
	out := &Encoding{}
	for _, e := range list {
		out.MergeWith(e, growing)
	}
	return out
}

// Pad grows e (and its overflowing parts) to target tokens.
func (e *Encoding) Pad(target, padID, padTypeID int, padToken string, dir Direction) {
	for _, o := range e.Overflowing {
		o.Pad(target, padID, padTypeID, padToken, dir)
	}
	n := target - e.Len()
	if n <= 0 {
		return
	}
	fill := func(v int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	toks := make([]string, n)
	for i := range toks {
		toks[i] = padToken
	}
	offs := make([][2]int, n)
	if dir == Left {
		e.IDs = append(fill(padID), e.IDs...)
		e.TypeIDs = append(fill(padTypeID), e.TypeIDs...)
		e.Tokens = append(toks, e.Tokens...)
		e.Words = append(fill(-1), e.Words...)
		e.Attention = append(fill(0), e.Attention...)
		e.Special = append(fill(1), e.Special...)
		e.Offsets = append(offs, e.Offsets...)
		for id, r := range e.Ranges {
			e.Ranges[id] = [2]int{r[0] + n, r[1] + n}
		}
		return
	}
	e.IDs = append(e.IDs, fill(padID)...)
	e.TypeIDs = append(e.TypeIDs, fill(padTypeID)...)
	e.Tokens = append(e.Tokens, toks...)
	e.Words = append(e.Words, fill(-1)...)
	e.Attention = append(e.Attention, fill(0)...)
	e.Special = append(e.Special, fill(1)...)
	e.Offsets = append(e.Offsets, offs...)
}
