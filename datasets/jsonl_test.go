package datasets

import (
	"reflect"
	"testing"
)

func TestReadJSONLColumnsKindsAndNulls(t *testing.T) {
	p := writeFile(t, "train.jsonl", `{"text": "Shares rose.", "label": "business", "score": 1, "ids": [1, 2]}

{"label": "sport", "text": "A goal!", "score": 2.5, "ids": [3], "note": "late"}
{"text": "Rain again.", "label": "business", "score": null, "ids": []}
`)
	ds, err := ReadJSONL(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.ColumnNames(); !reflect.DeepEqual(got, []string{"text", "label", "score", "ids", "note"}) {
		t.Errorf("columns %v (in order of first appearance)", got)
	}
	kinds := map[string]Kind{"text": KindString, "label": KindString, "score": KindFloat, "ids": KindIntList, "note": KindString}
	for name, k := range kinds {
		if got := ds.ColumnKind(name); got != k {
			t.Errorf("column %s is %v, want %v", name, got, k)
		}
	}
	if ds.Len() != 3 {
		t.Fatalf("%d rows", ds.Len())
	}
	want := []map[string]any{
		{"text": "Shares rose.", "label": "business", "score": 1.0, "ids": []int64{1, 2}, "note": nil},
		{"text": "A goal!", "label": "sport", "score": 2.5, "ids": []int64{3}, "note": "late"},
		{"text": "Rain again.", "label": "business", "score": nil, "ids": []int64{}, "note": nil},
	}
	for i, w := range want {
		if got := ds.Row(i); !reflect.DeepEqual(got, w) {
			t.Errorf("row %d = %v, want %v", i, got, w)
		}
	}
}

func TestReadJSONLWithALabelSetGivesClassIDs(t *testing.T) {
	p := writeFile(t, "t.jsonl", "{\"text\": \"a\", \"label\": \"tech\"}\n{\"text\": \"b\", \"label\": 0}\n{\"text\": \"c\", \"label\": \" sport \"}\n")
	ds, err := ReadJSONL(p, Options{Labels: mustLabels(t, "sport", "tech")})
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := ds.Ints("label")
	if !reflect.DeepEqual(ids, []int64{1, 0, 0}) {
		t.Errorf("ids %v", ids)
	}
	if l := ds.Labels("label"); l == nil || !reflect.DeepEqual(l.Names(), []string{"sport", "tech"}) {
		t.Errorf("label set %v", l)
	}
}

func TestReadJSONLBadInput(t *testing.T) {
	labels := mustLabels(t, "sport", "tech")
	cases := []errorCase{
		{"malformed line", "{\"text\": \"a\", \"label\": 0}\n{\"text\": \"b\", \"label\": 1\n", Options{}, []string{"bad.jsonl line 2", "malformed JSON"}},
		{"not an object", "{\"text\": \"a\", \"label\": 0}\n[1, 2]\n", Options{}, []string{"line 2", "array, not an object"}},
		{"two values on a line", "{\"text\": \"a\", \"label\": 0} {\"text\": \"b\"}\n", Options{}, []string{"line 1", "more than one value"}},
		{"text column missing from the file", "{\"body\": \"a\", \"label\": 0}\n", Options{}, []string{"bad.jsonl", `no column "text"`, "[body label]", "TextColumn"}},
		{"label missing from a row", "{\"text\": \"a\", \"label\": 0}\n\n{\"text\": \"b\"}\n", Options{}, []string{"bad.jsonl line 3", `no "label"`}},
		{"null text", "{\"text\": null, \"label\": 0}\n", Options{}, []string{"line 1", `"text" is null`}},
		{"empty text", "{\"text\": \"a\", \"label\": 0}\n{\"text\": \"  \", \"label\": 0}\n", Options{}, []string{"line 2", "empty", "AllowEmptyText"}},
		{"text not a string", "{\"text\": 12, \"label\": 0}\n", Options{}, []string{"line 1", "int64, not a string"}},
		{"label not in the set", "{\"text\": \"a\", \"label\": \"sport\"}\n{\"text\": \"b\", \"label\": \"politics\"}\n", Options{Labels: labels}, []string{"line 2", `label "politics" is not in the label set [sport tech]`}},
		{"class id out of range", "{\"text\": \"a\", \"label\": 2}\n", Options{Labels: labels}, []string{"line 1", "label 2 is not a class id"}},
		{"label a float", "{\"text\": \"a\", \"label\": 1.5}\n", Options{}, []string{"line 1", "float64; labels are names or class ids"}},
		{"nested object", "{\"text\": \"a\", \"label\": 0, \"meta\": {\"x\": 1}}\n", Options{}, []string{"line 1", `column "meta"`, "nested object"}},
		{"list of strings", "{\"text\": \"a\", \"label\": 0, \"tags\": [\"x\"]}\n", Options{}, []string{"line 1", `column "tags"`, "list holding a string"}},
		{"column changes type", "{\"text\": \"a\", \"label\": 0, \"n\": 1}\n{\"text\": \"b\", \"label\": 0, \"n\": \"x\"}\n", Options{}, []string{"line 2", `column "n" holds a value of type string`, "held int64 at ", "bad.jsonl line 1;"}},
		{"extra column missing", "{\"text\": \"a\", \"label\": 0}\n", Options{Columns: []string{"id"}}, []string{"bad.jsonl", `no column "id"`}},
		{"binary", "{\"text\": \"a\x00b\", \"label\": 0}\n", Options{}, []string{"bad.jsonl line 1", "NUL byte", "binary"}},
		{"strict UTF-8", "{\"text\": \"ok\", \"label\": 0}\n{\"text\": \"caf\xe9\", \"label\": 0}\n", Options{Encoding: StrictUTF8}, []string{"bad.jsonl line 2", "invalid UTF-8", "0xE9"}},
		{"UTF-16", "\xff\xfe{\x00", Options{}, []string{"UTF-16"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJSONL(writeFile(t, "bad.jsonl", c.content), c.opts)
			checkError(t, err, c.want)
		})
	}
}

func TestReadJSONLOptions(t *testing.T) {
	content := "{\"review\": \"caf\xe9 \xa35\", \"stars\": 4, \"id\": 7, \"extra\": {\"x\": 1}}\n{\"review\": \"\", \"stars\": 1, \"id\": 8, \"extra\": {}}\n"
	ds, err := ReadJSONL(writeFile(t, "r.jsonl", content), Options{TextColumn: "review", LabelColumn: "stars", Columns: []string{"id"}, AllowEmptyText: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.ColumnNames(); !reflect.DeepEqual(got, []string{"review", "stars", "id"}) {
		t.Errorf("columns %v; Columns should leave out extra", got)
	}
	texts, _ := ds.Strings("review")
	if !reflect.DeepEqual(texts, []string{"café £5", ""}) {
		t.Errorf("texts %q: the Windows-1252 line should decode, the empty text stay", texts)
	}
	unlabelled, err := ReadJSONL(writeFile(t, "u.jsonl", "{\"text\": \"a\"}\n"), Options{LabelColumn: NoColumn})
	if err != nil || unlabelled.Len() != 1 {
		t.Errorf("unlabelled: %v, %v", unlabelled, err)
	}
}
