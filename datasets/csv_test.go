package datasets

import (
	"reflect"
	"testing"
)

func TestReadCSVInfersColumnTypesAsPandas(t *testing.T) {
	p := writeFile(t, "train.csv", "text,label,stars,score,flag,note\n"+
		"\"Shares rose, again.\",business,4,0.5,true,\n"+
		"\"A \"\"quoted\"\"\nline break\",sport,5,1,False,x\n"+
		"123,business,,2,TRUE,y\n"+
		"A 12\" screen,sport,1,3,false,\n")
	ds, err := ReadCSV(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]Kind{"text": KindString, "label": KindString, "stars": KindInt, "score": KindFloat, "flag": KindBool, "note": KindString}
	for name, k := range kinds {
		if got := ds.ColumnKind(name); got != k {
			t.Errorf("column %s is %v, want %v", name, got, k)
		}
	}
	want := []map[string]any{
		{"text": "Shares rose, again.", "label": "business", "stars": int64(4), "score": 0.5, "flag": true, "note": nil},
		{"text": "A \"quoted\"\nline break", "label": "sport", "stars": int64(5), "score": 1.0, "flag": false, "note": "x"},
		{"text": "123", "label": "business", "stars": nil, "score": 2.0, "flag": true, "note": "y"},
		{"text": "A 12\" screen", "label": "sport", "stars": int64(1), "score": 3.0, "flag": false, "note": nil},
	}
	for i, w := range want {
		if got := ds.Row(i); !reflect.DeepEqual(got, w) {
			t.Errorf("row %d = %v, want %v", i, got, w)
		}
	}
	enc, err := ds.ClassEncodeColumn("label", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := enc.Ints("label"); !reflect.DeepEqual(ids, []int64{0, 1, 0, 1}) || !reflect.DeepEqual(enc.Labels("label").Names(), []string{"business", "sport"}) {
		t.Errorf("class-encoded labels %v with %v", ids, enc.Labels("label"))
	}
}

func TestReadCSVBadInput(t *testing.T) {
	labels := mustLabels(t, "neg", "pos")
	cases := []errorCase{
		{"empty file", "", Options{}, []string{"bad.csv is empty", "header"}},
		{"text column missing", "body,label\na,pos\n", Options{}, []string{"bad.csv", `no column "text"`, "[body label]"}},
		{"label column missing", "text\na\n", Options{}, []string{`no column "label"`, "NoColumn"}},
		{"extra column missing", "text,label\na,pos\n", Options{Columns: []string{"id"}}, []string{`no column "id"`}},
		{"short row", "text,label\na,pos\nb\n", Options{}, []string{"bad.csv", "line 3", "wrong number of fields"}},
		{"unclosed quote", "text,label\n\"a,pos\n", Options{}, []string{"bad.csv", "line 2"}},
		{"header names a column twice", "text,label,text\na,pos,b\n", Options{}, []string{"line 1", `"text" twice`}},
		{"empty text", "text,label\na,pos\n,neg\n", Options{}, []string{"bad.csv line 3", "empty"}},
		{"empty label", "text,label\na,\n", Options{}, []string{"bad.csv line 2", `"label" is null`}},
		{"label not in the set", "text,label\na,pos\nb,meh\n", Options{Labels: labels}, []string{"bad.csv line 3", `label "meh" is not in the label set [neg pos]`}},
		{"multi-line record reports its first line", "text,label\n\"a\nb\",pos\n\"c\nd\",meh\n", Options{Labels: labels}, []string{"bad.csv line 4", `"meh"`}},
		{"binary", "text,label\na\x00\x01,pos\n", Options{}, []string{"bad.csv line 2", "NUL byte"}},
		{"undefined in Windows-1252", "text,label\na\x81\xff,pos\n", Options{}, []string{"bad.csv line 2", "undefined in Windows-1252"}},
		{"strict UTF-8", "text,label\n\xa3 5,pos\n", Options{Encoding: StrictUTF8}, []string{"bad.csv line 2", "invalid UTF-8"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(writeFile(t, "bad.csv", c.content), c.opts)
			checkError(t, err, c.want)
		})
	}
}

// A file whose rows mix UTF-8 and Windows-1252 (texts pasted from two sources) keeps each row's
// characters.
func TestReadCSVDecodesWindows1252LinesAlone(t *testing.T) {
	ds, err := ReadCSV(writeFile(t, "mixed.csv", "text,label\ncafé £5,0\ncaf\xe9 \xa35 \x93quoted\x94,1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts, _ := ds.Strings("text")
	if want := []string{"café £5", "café £5 “quoted”"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("texts %q, want %q", texts, want)
	}
}
