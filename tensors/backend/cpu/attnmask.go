package cpu

import (
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// keyMask is an attention call's key padding mask (AttentionParams.KeyMask) as the tiled kernels
// use it: each batch row's keys end where its last visible key does (key blocks past it are
// skipped), and a block with masked keys before that end is marked so that only its rows pay
// for the element-wise mask. A nil *keyMask sees every key.
type keyMask struct {
	mask   []int64 // [Batch, Tk]
	tk     int
	end    []int  // per batch row: one past its last visible key (0 when it has none)
	holes  []bool // [Batch, key blocks]: the block has a masked key before the row's end
	blocks int
}

// newKeyMask reads p.KeyMask; nil when the call has none.
func newKeyMask(p backend.AttentionParams) *keyMask {
	if p.KeyMask == nil {
		return nil
	}
	blocks := (p.Tk + attnBlock - 1) / attnBlock
	km := &keyMask{mask: p.KeyMask.I64[:p.Batch*p.Tk], tk: p.Tk, end: make([]int, p.Batch), holes: make([]bool, p.Batch*blocks), blocks: blocks}
	for b := range p.Batch {
		row := km.mask[b*p.Tk : (b+1)*p.Tk]
		end := len(row)
		for end > 0 && row[end-1] == 0 {
			end--
		}
		km.end[b] = end
		for j, v := range row[:end] {
			if v == 0 {
				km.holes[b*blocks+j/attnBlock] = true
			}
		}
	}
	return km
}

// keyEnd is one past batch row b's last visible key.
func (km *keyMask) keyEnd(b, tk int) int {
	if km == nil {
		return tk
	}
	return km.end[b]
}

// hasHoles reports whether key block jb of batch row b has masked keys before the row's end.
func (km *keyMask) hasHoles(b, jb int) bool { return km != nil && km.holes[b*km.blocks+jb] }

// maskScores sets the scores of the masked keys j0, j0+1, … of batch row b to −Inf.
func maskScores[T float](row []T, km *keyMask, b, j0 int) {
	m := km.mask[b*km.tk+j0:]
	for j := range row {
		if m[j] == 0 {
			row[j] = T(math.Inf(-1))
		}
	}
}

// zeroMasked sets the weights of the masked keys j0, j0+1, … of batch row b to exactly 0 (the
// vector exponential clamps its argument, so e^−Inf comes out tiny rather than 0).
func zeroMasked[T float](row []T, km *keyMask, b, j0 int) {
	m := km.mask[b*km.tk+j0:]
	for j := range row {
		if m[j] == 0 {
			row[j] = 0
		}
	}
}
