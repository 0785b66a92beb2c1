package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// writeTree writes files (path under root → content) into a fresh folder and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestReadFolderSortsLabelsAndFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tech/002.txt":      "Chips got faster.",
		"tech/001.txt":      "A new phone.",
		"business/001.txt":  "Shares rose by \xa35m.", // Windows-1252
		"business/notes.md": "not a text of the corpus",
		"README.txt":        "at the root: ignored",
		"tech/old/001.txt":  "in a sub-folder: ignored",
	})
	ds, err := ReadFolder(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.ColumnNames(); !reflect.DeepEqual(got, []string{"text", "label", "path"}) {
		t.Errorf("columns %v", got)
	}
	paths, _ := ds.Strings("path")
	texts, _ := ds.Strings("text")
	ids, _ := ds.Ints("label")
	if !reflect.DeepEqual(paths, []string{"business/001.txt", "tech/001.txt", "tech/002.txt"}) || !reflect.DeepEqual(ids, []int64{0, 1, 1}) {
		t.Errorf("paths %v labels %v", paths, ids)
	}
	if texts[0] != "Shares rose by £5m." {
		t.Errorf("Windows-1252 text read as %q", texts[0])
	}
	if got := ds.Labels("label").Names(); !reflect.DeepEqual(got, []string{"business", "tech"}) {
		t.Errorf("label set %v", got)
	}
	named, err := ReadFolder(root, Options{TextColumn: "article", LabelColumn: "topic", Labels: mustLabels(t, "tech", "sport", "business")})
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := named.Ints("topic"); !reflect.DeepEqual(ids, []int64{2, 0, 0}) || named.ColumnKind("article") != KindString {
		t.Errorf("with a label set: %v, ids %v", named, ids)
	}
}

func TestReadFolderBadInput(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []string
	}{
		{"no label folders", map[string]string{"a.txt": "x"}, Options{}, []string{"has no label folders", "<label>/*.txt"}},
		{"binary file", map[string]string{"tech/001.txt": "ok", "tech/002.txt": "\x89PNG\r\n\x1a\n\x00\x00"}, Options{}, []string{"002.txt line 3", "NUL byte", "binary"}},
		{"control bytes", map[string]string{"tech/001.txt": "\x01\x02\xff"}, Options{}, []string{"001.txt line 1", "control byte 0x01"}},
		{"strict UTF-8", map[string]string{"tech/001.txt": "fine\nShares \xa35m\n"}, Options{Encoding: StrictUTF8}, []string{"001.txt line 2", "invalid UTF-8", "0xA3"}},
		{"empty file", map[string]string{"tech/001.txt": " \n"}, Options{}, []string{"001.txt", "empty", "AllowEmptyText"}},
		{"folder not in the label set", map[string]string{"tech/001.txt": "x", "sport/001.txt": "y"}, Options{Labels: mustLabels(t, "tech")}, []string{"sport", `label "sport" is not in the label set [tech]`}},
		{"no label column", map[string]string{"tech/001.txt": "x"}, Options{LabelColumn: NoColumn}, []string{"cannot be NoColumn"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadFolder(writeTree(t, c.files), c.opts)
			checkError(t, err, c.want)
		})
	}
	_, err := ReadFolder(filepath.Join(t.TempDir(), "missing"), Options{})
	checkError(t, err, []string{"missing", "no such file"})
}
