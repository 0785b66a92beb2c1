package datasets

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// small is a dataset of n rows: text "t<i>", label i%3, id i.
func small(t *testing.T, n int) *Dataset {
	t.Helper()
	texts, labels, ids := make([]string, n), make([]int64, n), make([]int, n)
	for i := range n {
		texts[i], labels[i], ids[i] = fmt.Sprintf("t%d", i), int64(i%3), i
	}
	ds, err := FromColumns(map[string]any{"text": texts, "label": labels, "id": ids})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func idsOf(t *testing.T, ds *Dataset) []int64 {
	t.Helper()
	v, err := ds.Ints("id")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFromColumns(t *testing.T) {
	ds, err := FromColumns(map[string]any{"b": []int{1, 2}, "a": [][]int{{1}, {2, 3}}, "c": []any{"x", nil}, "d": []float32{0.5, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.ColumnNames(); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("columns %v, want them sorted", got)
	}
	if got := ds.Row(1); !reflect.DeepEqual(got, map[string]any{"a": []int64{2, 3}, "b": int64(2), "c": nil, "d": 1.0}) {
		t.Errorf("row 1 = %v", got)
	}
	if s := ds.String(); s != "Dataset({features: [a: list of int64, b: int64, c: string, d: float64], num_rows: 2})" {
		t.Errorf("String() = %s", s)
	}
	for _, bad := range []struct {
		cols map[string]any
		want string
	}{
		{map[string]any{"a": []int{1}, "b": []int{1, 2}}, `column "b" has 2 rows but column "a" has 1`},
		{map[string]any{"a": map[string]int{}}, "cannot be a column"},
		{map[string]any{"a": []any{1, "x"}}, "a column has one type"},
		{map[string]any{"a": []any{struct{}{}}}, "row 0 holds a struct {}"},
	} {
		_, err := FromColumns(bad.cols)
		checkError(t, err, []string{bad.want})
	}
	src := []string{"x", "y"}
	ds, _ = FromColumns(map[string]any{"text": src})
	src[0] = "changed"
	if r := ds.Row(0); r["text"] != "x" {
		t.Error("FromColumns kept the caller's slice")
	}
}

func TestSelectShuffleFilter(t *testing.T) {
	ds := small(t, 10)
	sel, err := ds.Select([]int{7, 2, 2})
	if err != nil || !reflect.DeepEqual(idsOf(t, sel), []int64{7, 2, 2}) {
		t.Errorf("Select: %v %v", sel, err)
	}
	_, err = ds.Select([]int{3, 10})
	checkError(t, err, []string{"index 10 (position 1) is out of range for 10 rows"})

	a, b, c := ds.Shuffle(1), ds.Shuffle(1), ds.Shuffle(2)
	if !reflect.DeepEqual(idsOf(t, a), idsOf(t, b)) || reflect.DeepEqual(idsOf(t, a), idsOf(t, c)) {
		t.Error("Shuffle is not a function of its seed")
	}
	got := idsOf(t, a)
	slices.Sort(got)
	if !reflect.DeepEqual(got, idsOf(t, ds)) {
		t.Errorf("Shuffle lost rows: %v", got)
	}
	if a.Fingerprint() != b.Fingerprint() || a.Fingerprint() == c.Fingerprint() || a.Fingerprint() == ds.Fingerprint() {
		t.Error("fingerprints do not follow the seed")
	}

	odd, err := ds.Filter(func(r map[string]any) bool { return r["id"].(int64)%2 == 1 })
	if err != nil || !reflect.DeepEqual(idsOf(t, odd), []int64{1, 3, 5, 7, 9}) {
		t.Errorf("Filter: %v %v", odd, err)
	}
	_, err = ds.Filter(func(r map[string]any) bool { return r["missing"].(bool) })
	checkError(t, err, []string{"Filter: row 0", "panicked"})
}

func TestColumnEdits(t *testing.T) {
	ds := small(t, 3)
	r, err := ds.RenameColumn("text", "sentence")
	if err != nil || !reflect.DeepEqual(r.ColumnNames(), []string{"id", "label", "sentence"}) {
		t.Errorf("RenameColumn: %v %v", r, err)
	}
	_, err = ds.RenameColumn("text", "id")
	checkError(t, err, []string{`cannot rename "text" to "id"`})
	rm, err := ds.RemoveColumns("id", "text")
	if err != nil || !reflect.DeepEqual(rm.ColumnNames(), []string{"label"}) {
		t.Errorf("RemoveColumns: %v %v", rm, err)
	}
	_, err = ds.RemoveColumns("nope")
	checkError(t, err, []string{`no column "nope"`})
	add, err := ds.AddColumn("w", []float64{1, 2, 3})
	if err != nil || add.ColumnKind("w") != KindFloat {
		t.Errorf("AddColumn: %v %v", add, err)
	}
	_, err = ds.AddColumn("w", []float64{1})
	checkError(t, err, []string{"1 values for 3 rows"})
	_, err = ds.Strings("id")
	checkError(t, err, []string{`column "id" holds int64 values, not string`})
}

func TestSplits(t *testing.T) {
	ds := small(t, 20)
	train, test, err := ds.TrainTestSplit(0.25, 42)
	if err != nil || train.Len() != 15 || test.Len() != 5 {
		t.Fatalf("TrainTestSplit(0.25): %v %v %v", train, test, err)
	}
	all := append(idsOf(t, train), idsOf(t, test)...)
	slices.Sort(all)
	if !reflect.DeepEqual(all, idsOf(t, ds)) {
		t.Errorf("the parts do not partition the rows: %v", all)
	}
	_, test2, _ := ds.TrainTestSplit(0.25, 42)
	if !reflect.DeepEqual(idsOf(t, test), idsOf(t, test2)) {
		t.Error("the same seed gave another split")
	}
	if _, test3, _ := ds.TrainTestSplit(0.11, 1); test3.Len() != 3 {
		t.Errorf("0.11 of 20 rows gave %d test rows; datasets rounds up to 3", test3.Len())
	}
	if _, test4, _ := ds.TrainTestSplit(4, 1); test4.Len() != 4 {
		t.Errorf("testSize 4 gave %d test rows", test4.Len())
	}
	for _, bad := range []float64{0, -1, 1.5, 20} {
		_, _, err := ds.TrainTestSplit(bad, 1)
		checkError(t, err, []string{"TrainTestSplit"})
	}

	train, test, err = ds.SplitEvery(3, "label")
	if err != nil {
		t.Fatal(err)
	}
	// label 0: ids 0 3 6 9 12 15 18 → test 0 9 18; label 1: 1 4 7 10 13 16 19 → 1 10 19; label 2: 2 5 8 11 14 17 → 2 11
	if got := idsOf(t, test); !reflect.DeepEqual(got, []int64{0, 1, 2, 9, 10, 11, 18, 19}) {
		t.Errorf("SplitEvery(3) test ids %v", got)
	}
	if train.Len() != 12 || !sort.SliceIsSorted(idsOf(t, train), func(a, b int) bool { return idsOf(t, train)[a] < idsOf(t, train)[b] }) {
		t.Errorf("SplitEvery train %v not in dataset order", idsOf(t, train))
	}
	_, _, err = ds.SplitEvery(1, "label")
	checkError(t, err, []string{"k ≥ 2"})
	_, _, err = ds.SplitEvery(5, "topic")
	checkError(t, err, []string{`no column "topic"`})
}

func TestDropDuplicates(t *testing.T) {
	ds, _ := FromColumns(map[string]any{
		"text":  []string{"a b", "a  b", "c", "a b", "c", "a\nb "},
		"label": []int{0, 0, 1, 1, 1, 0},
	})
	cases := []struct {
		opts DedupeOptions
		want []string
	}{
		{DedupeOptions{}, []string{"a b", "a  b", "c", "a\nb "}},
		{DedupeOptions{CollapseSpace: true}, []string{"a b", "c"}},
		{DedupeOptions{Columns: []string{"text", "label"}}, []string{"a b", "a  b", "c", "a b", "a\nb "}}, // ("a b", 1) differs from ("a b", 0)
	}
	for _, c := range cases {
		got, err := ds.DropDuplicates(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if texts, _ := got.Strings("text"); !reflect.DeepEqual(texts, c.want) {
			t.Errorf("%+v kept %q, want %q", c.opts, texts, c.want)
		}
	}
	_, err := ds.DropDuplicates(DedupeOptions{Columns: []string{"body"}})
	checkError(t, err, []string{`no column "body"`})
}

func TestClassEncodeColumnAndConcatenate(t *testing.T) {
	a, _ := FromColumns(map[string]any{"text": []string{"x", "y"}, "label": []string{"pos", "neg"}})
	b, _ := FromColumns(map[string]any{"text": []string{"z"}, "label": []string{"pos"}})
	ea, err := a.ClassEncodeColumn("label", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := ea.Ints("label"); !reflect.DeepEqual(ids, []int64{1, 0}) {
		t.Errorf("ids %v with %v", ids, ea.Labels("label"))
	}
	eb, err := b.ClassEncodeColumn("label", ea.Labels("label")) // the training set's labels
	if err != nil {
		t.Fatal(err)
	}
	all, err := Concatenate(ea, eb)
	if err != nil || all.Len() != 3 {
		t.Fatalf("Concatenate: %v %v", all, err)
	}
	if ids, _ := all.Ints("label"); !reflect.DeepEqual(ids, []int64{1, 0, 1}) {
		t.Errorf("concatenated ids %v", ids)
	}
	own, _ := b.ClassEncodeColumn("label", nil) // {pos} alone: another label set
	_, err = Concatenate(ea, own)
	checkError(t, err, []string{"class labels [neg pos]", "[pos]"})
	_, err = Concatenate(a, ea)
	checkError(t, err, []string{"string in one part and int64"})
	_, err = a.ClassEncodeColumn("label", mustLabels(t, "pos"))
	checkError(t, err, []string{"row 1", `label "neg" is not in the label set [pos]`})
	if !strings.Contains(ea.String(), "label: ClassLabel[neg pos]") {
		t.Errorf("String() = %s", ea)
	}
}
