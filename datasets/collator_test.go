package datasets

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

type collatorCase struct {
	Name            string           `json:"name"`
	PadTokenID      int64            `json:"pad_token_id"`
	PadTokenTypeID  int64            `json:"pad_token_type_id"`
	PaddingSide     string           `json:"padding_side"`
	PadToMultipleOf int              `json:"pad_to_multiple_of"`
	Rows            []map[string]any `json:"rows"`
	Batch           map[string]struct {
		DType  string    `json:"dtype"`
		Shape  []int     `json:"shape"`
		Values []float64 `json:"values"`
	} `json:"batch"`
}

// rowsDataset makes a dataset of the fixture's rows (JSON numbers: whole ones as ints).
func rowsDataset(t *testing.T, rows []map[string]any) *Dataset {
	t.Helper()
	cols := map[string]any{}
	for name := range rows[0] {
		vals := make([]any, len(rows))
		for i, r := range rows {
			v, err := jsonValue(r[name])
			if err != nil {
				t.Fatal(err)
			}
			vals[i] = v
		}
		cols[name] = vals
	}
	ds, err := FromColumns(cols)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestCollatorMatchesTransformers pads the rows of testdata/collator.json (MiniLM's tokenizer;
// right and left padding, multiples of 8 and 4, a non-zero pad id, rows without a mask, special
// tokens masks, float labels and an extra int column) and compares every tensor with
// transformers' DataCollatorWithPadding.
func TestCollatorMatchesTransformers(t *testing.T) {
	f, err := os.Open("testdata/collator.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fx struct {
		Cases []collatorCase `json:"cases"`
	}
	dec := json.NewDecoder(f)
	dec.UseNumber()
	if err := dec.Decode(&fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) != 7 {
		t.Fatalf("%d cases in the fixture", len(fx.Cases))
	}
	for _, c := range fx.Cases {
		t.Run(c.Name, func(t *testing.T) {
			collator := DataCollatorWithPadding{PadTokenID: c.PadTokenID, PadTokenTypeID: c.PadTokenTypeID, PaddingSide: c.PaddingSide, PadToMultipleOf: c.PadToMultipleOf}
			b, err := collator.Collate(rowsDataset(t, c.Rows))
			if err != nil {
				t.Fatal(err)
			}
			names := b.Names()
			want := make([]string, 0, len(c.Batch))
			for n := range c.Batch {
				want = append(want, n)
			}
			sort.Strings(names)
			sort.Strings(want)
			if !reflect.DeepEqual(names, want) {
				t.Fatalf("tensors %v, transformers gives %v", names, want)
			}
			for name, w := range c.Batch {
				got := b.Get(name)
				wantType := map[string]tensors.DType{"torch.int64": tensors.Int64, "torch.float32": tensors.Float32}[w.DType]
				if got.DType() != wantType || !reflect.DeepEqual(got.Shape(), w.Shape) {
					t.Errorf("%s: %v %v, transformers gives %s %v", name, got.DType(), got.Shape(), w.DType, w.Shape)
					continue
				}
				if vals := got.Float64s(); !reflect.DeepEqual(vals, w.Values) {
					t.Errorf("%s:\n got %v\nwant %v", name, vals, w.Values)
				}
			}
		})
	}
}

func tokenized(t *testing.T, cols map[string]any) *Dataset {
	t.Helper()
	ds, err := FromColumns(cols)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestCollatorBadInput(t *testing.T) {
	ids := [][]int64{{101, 5, 102}, {101, 102}}
	cases := []struct {
		name     string
		cols     map[string]any
		collator DataCollatorWithPadding
		want     []string
	}{
		{"no input_ids", map[string]any{"text": []string{"a", "b"}}, DataCollatorWithPadding{}, []string{`"input_ids"`, "[text]", "tokenize them with Map"}},
		{"text column left in", map[string]any{"input_ids": ids, "text": []string{"a", "b"}}, DataCollatorWithPadding{}, []string{`column "text" holds string values`, "RemoveColumns"}},
		{"string labels", map[string]any{"input_ids": ids, "label": []string{"a", "b"}}, DataCollatorWithPadding{}, []string{"strings", "ClassEncodeColumn"}},
		{"per-token labels", map[string]any{"input_ids": ids, "labels": [][]int64{{0, 1, 0}, {0, 0}}}, DataCollatorWithPadding{}, []string{"DataCollatorForTokenClassification"}},
		{"two label columns", map[string]any{"input_ids": ids, "label": []int{0, 1}, "labels": []int{0, 1}}, DataCollatorWithPadding{}, []string{`both "label" and "labels"`}},
		{"mask of another length", map[string]any{"input_ids": ids, "attention_mask": [][]int64{{1, 1, 1}, {1}}}, DataCollatorWithPadding{}, []string{"row 1 has 2 input_ids but 1 attention_mask"}},
		{"null label", map[string]any{"input_ids": ids, "label": []any{0, nil}}, DataCollatorWithPadding{}, []string{`row 1 has no "label"`}},
		{"padding side", map[string]any{"input_ids": ids}, DataCollatorWithPadding{PaddingSide: "top"}, []string{`PaddingSide "top"`}},
		{"negative multiple", map[string]any{"input_ids": ids}, DataCollatorWithPadding{PadToMultipleOf: -8}, []string{"negative PadToMultipleOf"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := WithCollator(tokenized(t, c.cols), c.collator)
			checkError(t, err, c.want)
		})
	}
}

// lengths gives a tokenized dataset of n rows whose row i has i%13+2 tokens (all i+1000) and
// label i.
func lengths(t *testing.T, n int) *Dataset {
	t.Helper()
	ids := make([][]int64, n)
	labels := make([]int, n)
	for i := range n {
		row := make([]int64, i%13+2)
		for k := range row {
			row[k] = int64(i + 1000)
		}
		ids[i], labels[i] = row, i
	}
	return tokenized(t, map[string]any{"input_ids": ids, "label": labels})
}

// checkPadded checks one batch of lengths(): each row holds its own token, padded with pad, and
// its mask marks exactly the real tokens; it returns the labels.
func checkPadded(t *testing.T, b *data.Batch, pad int64, multiple int) []int64 {
	t.Helper()
	ids, mask, labels := b.Get("input_ids"), b.Get("attention_mask"), b.Get("labels")
	if ids.DType() != tensors.Int64 || mask.DType() != tensors.Int64 || labels.DType() != tensors.Int64 {
		t.Fatalf("dtypes %v", b)
	}
	rows, width := ids.Size(0), ids.Size(1)
	if width%multiple != 0 {
		t.Errorf("width %d is not a multiple of %d", width, multiple)
	}
	iv, mv, lv := ids.Int64s(), mask.Int64s(), labels.Int64s()
	longest := 0
	for r := range rows {
		n := int(lv[r])%13 + 2
		longest = max(longest, n)
		for k := range width {
			real := k < n
			want, wantMask := pad, int64(0)
			if real {
				want, wantMask = lv[r]+1000, 1
			}
			if iv[r*width+k] != want || mv[r*width+k] != wantMask {
				t.Fatalf("row %d (label %d), position %d: id %d mask %d, want %d %d", r, lv[r], k, iv[r*width+k], mv[r*width+k], want, wantMask)
			}
		}
	}
	if want := (longest + multiple - 1) / multiple * multiple; width != want {
		t.Errorf("width %d, want the longest %d rounded up to %d", width, longest, want)
	}
	return lv
}

func TestCollatedServesALoader(t *testing.T) {
	ds := lengths(t, 100)
	coll, err := WithCollator(ds, DataCollatorWithPadding{PadTokenID: -7, PadToMultipleOf: 8})
	if err != nil {
		t.Fatal(err)
	}
	var _ data.NamedBatchGetter = coll
	var _ data.SampleLengths = coll
	for _, cfg := range []data.LoaderConfig{
		{BatchSize: 16, Shuffle: true, Seed: 4},
		{BatchSize: 16, GroupByLength: true, Seed: 4, Prefetch: data.NoPrefetch},
		{BatchSize: 7, DropLast: true},
	} {
		loader := data.NewLoader(coll, cfg)
		var seen []int64
		for loader.Next() {
			b := loader.Named()
			seen = append(seen, checkPadded(t, b, -7, 8)...)
			if x, y := loader.Batch(); x != b.Get("input_ids") || y != b.Get("labels") {
				t.Fatal("Batch() is not (input_ids, labels)")
			}
		}
		slices.Sort(seen)
		want := 100
		if cfg.DropLast {
			want = 98
		}
		if len(seen) != want || len(slices.Compact(seen)) != want {
			t.Errorf("%+v: an epoch saw %d rows (%d distinct), want %d", cfg, len(seen), len(slices.Compact(seen)), want)
		}
	}
	x, y := coll.Get(3)
	if !reflect.DeepEqual(x.Shape(), []int{5}) || y.Dim() != 0 || y.Int64s()[0] != 3 {
		t.Errorf("Get(3) = %v %v", x.Shape(), y.Shape())
	}
	bx, by := coll.GetBatch([]int{0, 12})
	if !reflect.DeepEqual(bx.Shape(), []int{2, 16}) || !reflect.DeepEqual(by.Int64s(), []int64{0, 12}) {
		t.Errorf("GetBatch: %v %v", bx.Shape(), by.Int64s())
	}
	if got := coll.SampleLengths()[:3]; !reflect.DeepEqual(got, []int{2, 3, 4}) {
		t.Errorf("SampleLengths %v", got)
	}
}

// Left padding puts the pad ids and zero mask before each row's tokens.
func TestCollatorPadsLeft(t *testing.T) {
	ds := tokenized(t, map[string]any{"input_ids": [][]int64{{5, 6, 7}, {8}}, "token_type_ids": [][]int64{{0, 0, 1}, {1}}})
	b, err := DataCollatorWithPadding{PadTokenID: 9, PadTokenTypeID: 3, PaddingSide: "left"}.Collate(ds)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int64{"input_ids": {5, 6, 7, 9, 9, 8}, "attention_mask": {1, 1, 1, 0, 0, 1}, "token_type_ids": {0, 0, 1, 3, 3, 1}}
	for name, w := range want {
		if got := b.Get(name).Int64s(); !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	if b.Get("labels") != nil {
		t.Error("labels from a dataset without labels")
	}
}
