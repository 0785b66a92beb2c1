package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

type parquetRow struct {
	Text  string   `parquet:"text"`
	Label string   `parquet:"label"`
	ID    int32    `parquet:"id"`
	Score float64  `parquet:"score"`
	IDs   []int64  `parquet:"ids,list"`
	Note  *string  `parquet:"note,optional"`
	Meta  struct { // a nested record, which datasets cannot hold
		Source string `parquet:"source"`
	} `parquet:"meta"`
}

// writeParquet writes rows with parquet-go and returns the file's path.
func writeParquet(t *testing.T, rows []parquetRow) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[parquetRow](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func note(s string) *string { return &s }

var wanted = Options{Columns: []string{"id", "score", "ids", "note"}}

func TestReadParquetWrittenByParquetGo(t *testing.T) {
	p := writeParquet(t, []parquetRow{
		{Text: "Shares rose.", Label: "business", ID: 1, Score: 0.5, IDs: []int64{101, 7, 102}, Note: note("x")},
		{Text: "caf\xe9", Label: "sport", ID: 2, Score: 1, IDs: []int64{101, 102}},
	})
	ds, err := ReadParquet(p, Options{Columns: wanted.Columns, Labels: mustLabels(t, "business", "sport")})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.ColumnNames(); !reflect.DeepEqual(got, []string{"text", "label", "id", "score", "ids", "note"}) {
		t.Errorf("columns %v", got)
	}
	want := []map[string]any{
		{"text": "Shares rose.", "label": int64(0), "id": int64(1), "score": 0.5, "ids": []int64{101, 7, 102}, "note": "x"},
		{"text": "café", "label": int64(1), "id": int64(2), "score": 1.0, "ids": []int64{101, 102}, "note": nil},
	}
	for i, w := range want {
		if got := ds.Row(i); !reflect.DeepEqual(got, w) {
			t.Errorf("row %d = %v, want %v", i, got, w)
		}
	}
}

func TestReadParquetBadInput(t *testing.T) {
	good := parquetRow{Text: "a", Label: "business"}
	cases := []struct {
		name string
		rows []parquetRow
		opts Options
		want []string
	}{
		{"nested record not left out", []parquetRow{good}, Options{}, []string{"row 1", `column "meta" (group)`, "Options.Columns"}},
		{"column missing", []parquetRow{good}, Options{Columns: []string{"body"}}, []string{"data.parquet", `no column "body"`}},
		{"label not in the set", []parquetRow{good, {Text: "b", Label: "tech"}}, Options{Columns: wanted.Columns, Labels: mustLabels(t, "business")}, []string{"data.parquet row 2", `label "tech" is not in the label set`}},
		{"empty text", []parquetRow{good, good, {Label: "business"}}, wanted, []string{"data.parquet row 3", "empty"}},
		{"strict UTF-8", []parquetRow{{Text: "\xa35", Label: "business"}}, Options{Columns: wanted.Columns, Encoding: StrictUTF8}, []string{"row 1", `column "text"`, "invalid UTF-8"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadParquet(writeParquet(t, c.rows), c.opts)
			checkError(t, err, c.want)
		})
	}
	_, err := ReadParquet(writeFile(t, "fake.parquet", "text,label\na,b\n"), Options{})
	checkError(t, err, []string{"fake.parquet", "not a readable Parquet file"})
}

// Files from other writers: Impala's alltypes_plain.parquet (plain BINARY strings, INT32,
// FLOAT, an INT96 timestamp) and Arrow C++'s list_columns.parquet (LIST columns with nulls).
func TestReadParquetWrittenByOtherWriters(t *testing.T) {
	opts := Options{TextColumn: "date_string_col", LabelColumn: "id", Columns: []string{"string_col", "bool_col", "float_col", "bigint_col"}}
	ds, err := ReadParquet("testdata/alltypes_plain.parquet", opts)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 8 || ds.ColumnKind("float_col") != KindFloat || ds.ColumnKind("bool_col") != KindBool || ds.ColumnKind("id") != KindInt {
		t.Fatalf("read %v", ds)
	}
	if got := ds.Row(1); !reflect.DeepEqual(got, map[string]any{"id": int64(5), "bool_col": false, "bigint_col": int64(10),
		"float_col": float64(float32(1.1)), "date_string_col": "03/01/09", "string_col": "1"}) {
		t.Errorf("row 1 = %v", got)
	}
	opts.Columns = nil
	_, err = ReadParquet("testdata/alltypes_plain.parquet", opts)
	checkError(t, err, []string{`column "timestamp_col" (INT96)`, "Options.Columns"})

	lists, err := ReadParquet("testdata/list_columns.parquet", Options{TextColumn: NoColumn, LabelColumn: NoColumn, Columns: []string{"int64_list"}})
	checkError(t, err, []string{"list_columns.parquet row 2", `column "int64_list"`, "other than numbers"}) // [null, 1]
	if lists != nil {
		t.Errorf("read %v", lists)
	}
}
