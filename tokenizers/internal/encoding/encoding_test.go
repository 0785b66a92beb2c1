package encoding

import (
	"reflect"
	"testing"
)

func seq(n int) *Encoding {
	e := &Encoding{}
	for i := 0; i < n; i++ {
		e.IDs = append(e.IDs, i)
		e.TypeIDs = append(e.TypeIDs, 0)
		e.Tokens = append(e.Tokens, "t")
		e.Words = append(e.Words, i)
		e.Offsets = append(e.Offsets, [2]int{i, i + 1})
		e.Special = append(e.Special, 0)
		e.Attention = append(e.Attention, 1)
	}
	return e
}

// TestTruncateWindows checks the windows truncation cuts with a stride,
// from either side, as tokenizers' Encoding::truncate does.
func TestTruncateWindows(t *testing.T) {
	cases := []struct {
		n, max, stride int
		dir            Direction
		want           [][]int
	}{
		{7, 3, 1, Right, [][]int{{0, 1, 2}, {2, 3, 4}, {4, 5, 6}}},
		{6, 4, 0, Right, [][]int{{0, 1, 2, 3}, {4, 5}}},
		{7, 3, 1, Left, [][]int{{4, 5, 6}, {2, 3, 4}, {0, 1, 2}}},
		{5, 0, 0, Right, [][]int{{}, {0, 1, 2, 3, 4}}},
		{3, 5, 0, Right, [][]int{{0, 1, 2}}},
	}
	for _, c := range cases {
		e := seq(c.n)
		if err := e.Truncate(c.max, c.stride, c.dir); err != nil {
			t.Fatal(err)
		}
		got := [][]int{e.IDs}
		for _, o := range e.Overflowing {
			got = append(got, o.IDs)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: %v, want %v", c, got, c.want)
		}
	}
	if err := seq(5).Truncate(2, 2, Right); err == nil {
		t.Error("stride 2 with max 2: no error")
	}
}

func TestPadLeftShiftsSequenceRanges(t *testing.T) {
	e := seq(2)
	e.SetSequenceID(0)
	e.Pad(4, 9, 0, "[PAD]", Left)
	if !reflect.DeepEqual(e.IDs, []int{9, 9, 0, 1}) || !reflect.DeepEqual(e.SequenceIDs(), []int{-1, -1, 0, 0}) ||
		!reflect.DeepEqual(e.Attention, []int{0, 0, 1, 1}) {
		t.Errorf("padded: ids %v sequence ids %v attention %v", e.IDs, e.SequenceIDs(), e.Attention)
	}
}
