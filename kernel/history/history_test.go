package history

import (
	"reflect"
	"testing"
)

func filled() *Store {
	s := New("sess")
	for i, in := range []string{"x := 1", "fmt.Println(x)", "x := 1", "a/b := 2\nz", "y := x*2"} {
		s.Add(i+1, in, "")
	}
	return s
}

func lines(es []Entry) []int {
	var out []int
	for _, e := range es {
		out = append(out, e.Line)
	}
	return out
}

func TestTailReturnsLastNOldestFirst(t *testing.T) {
	if got := lines(filled().Tail(2)); !reflect.DeepEqual(got, []int{4, 5}) {
		t.Fatalf("Tail(2) = %v", got)
	}
	if got := len(filled().Tail(0)); got != 5 {
		t.Fatalf("Tail(0) = %d entries", got)
	}
}

func TestRangeIsHalfOpenAndOnlyCurrentSession(t *testing.T) {
	s := filled()
	tests := []struct {
		session, start, stop int
		want                 []int
	}{
		{0, 2, 4, []int{2, 3}},
		{1, 4, 0, []int{4, 5}},
		{0, 1, 2, []int{1}},
		{-1, 1, 5, nil},
		{3, 1, 5, nil},
	}
	for _, tt := range tests {
		if got := lines(s.Range(tt.session, tt.start, tt.stop)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Range(%d,%d,%d) = %v, want %v", tt.session, tt.start, tt.stop, got, tt.want)
		}
	}
}

func TestSearchGlobLikeIPython(t *testing.T) {
	s := filled()
	tests := []struct {
		pattern string
		n       int
		unique  bool
		want    []int
	}{
		{"x*", 0, false, []int{1, 3}},
		{"x*", 0, true, []int{3}},
		{"*x*", 2, false, []int{3, 5}},
		{"a*z", 0, false, []int{4}}, // * crosses "/" and newlines
		{"?mt.*", 0, false, []int{2}},
		{"[xy]*", 0, false, []int{1, 3, 5}},
		{"[!x]*", 0, false, []int{2, 4, 5}},
		{"", 1, false, []int{5}},
		{"nothing", 0, false, nil},
	}
	for _, tt := range tests {
		got, err := s.Search(tt.pattern, tt.n, tt.unique)
		if err != nil {
			t.Fatal(err)
		}
		if l := lines(got); !reflect.DeepEqual(l, tt.want) {
			t.Errorf("Search(%q,%d,%v) = %v, want %v", tt.pattern, tt.n, tt.unique, l, tt.want)
		}
	}
	if _, err := s.Search("[abc", 0, false); err == nil {
		t.Error("unclosed class must be an error")
	}
}

func TestTuplesShapeForHistoryReply(t *testing.T) {
	es := []Entry{{Session: 1, Line: 2, Input: "in", Output: "out"}}
	if got := Tuples(es, false); !reflect.DeepEqual(got, [][]any{{1, 2, "in"}}) {
		t.Errorf("Tuples = %v", got)
	}
	if got := Tuples(es, true); !reflect.DeepEqual(got, [][]any{{1, 2, []any{"in", "out"}}}) {
		t.Errorf("Tuples with output = %v", got)
	}
}

func TestSetOutputShowsInTuplesWithOutput(t *testing.T) {
	s := filled()
	s.SetOutput(5, "84")
	got := Tuples(s.Tail(1), true)
	if !reflect.DeepEqual(got, [][]any{{1, 5, []any{"y := x*2", "84"}}}) {
		t.Fatalf("Tuples = %v", got)
	}
}
