package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes content to name in a fresh temporary folder and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// errorCase is a bad input and the fragments its error must contain.
type errorCase struct {
	name    string
	content string
	opts    Options
	want    []string
}

// checkError fails unless err holds every fragment of want.
func checkError(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

func mustLabels(t *testing.T, names ...string) *ClassLabel {
	t.Helper()
	c, err := NewClassLabel(names...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
