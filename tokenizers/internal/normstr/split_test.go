package normstr

import (
	"reflect"
	"testing"
)

// TestSplitBehaviors is the table of tokenizers' SplitDelimiterBehavior
// documentation, with the offsets of every piece in the original.
func TestSplitBehaviors(t *testing.T) {
	dash := RunePattern(func(r rune) bool { return r == '-' })
	cases := []struct {
		b    Behavior
		want []string
	}{
		{Removed, []string{"the", "final", "countdown"}},
		{Isolated, []string{"the", "-", "final", "-", "-", "countdown"}},
		{MergedWithPrevious, []string{"the-", "final-", "-", "countdown"}},
		{MergedWithNext, []string{"the", "-final", "-", "-countdown"}},
		{Contiguous, []string{"the", "-", "final", "--", "countdown"}},
	}
	for _, c := range cases {
		parts, err := New("the-final--countdown").Split(dash, c.b)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range parts {
			got = append(got, p.Normalized)
			if start, end := p.OffsetsOriginal(); "the-final--countdown"[start:end] != p.Original {
				t.Errorf("behavior %d: piece %q has offsets %d..%d", c.b, p.Normalized, start, end)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("behavior %d: %q, want %q", c.b, got, c.want)
		}
	}
}

// TestTransformKeepsAlignments checks that an inserted character takes the
// alignment of the one before it and that removed characters vanish from
// the alignments, as transform_range does.
func TestTransformKeepsAlignments(t *testing.T) {
	s := New("aé")
	s.Transform([]Change{{'x', 0}, {'y', 1}, {'z', -1}}, 0) // a→x, insert y, é→z (and remove nothing after)
	if s.Normalized != "xyz" {
		t.Fatalf("normalized %q", s.Normalized)
	}
	want := []Align{{0, 1}, {0, 1}, {1, 3}}
	if !reflect.DeepEqual(s.Align, want) {
		t.Errorf("alignments %v, want %v", s.Align, want)
	}
	if o0, o1, _ := s.NormalizedToOriginal(2, 3); o0 != 1 || o1 != 3 {
		t.Errorf("z maps to %d..%d, want 1..3", o0, o1)
	}
}
