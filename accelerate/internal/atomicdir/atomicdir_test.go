package atomicdir

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// version writes a folder holding one file, version.txt = v; sealed makes
// it complete.
func version(t *testing.T, dir, v string, sealed bool) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "version.txt"), []byte(v), 0o644); err != nil {
		t.Fatal(err)
	}
	if sealed {
		if err := Seal(dir); err != nil {
			t.Fatal(err)
		}
	}
}

func contentOf(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "version.txt"))
	if err != nil {
		return "none"
	}
	return string(b)
}

func names(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range entries {
		n = append(n, e.Name())
	}
	sort.Strings(n)
	return strings.Join(n, " ")
}

// Each state is what a crash can leave; Resolve reads the newest complete
// version through it, Recover turns it into that version under the name.
func TestResolveAndRecoverEveryCrashState(t *testing.T) {
	type state struct{ path, staging, previous, deleting string } // "": absent; "v1": complete; "v1?": unsealed; "v1!": damaged
	tests := []struct {
		name    string
		s       state
		resolve string // version Resolve reads ("none": nothing complete)
		after   string // version under the name after Recover
	}{
		{"published", state{path: "v2"}, "v2", "v2"},
		{"staging unsealed", state{path: "v1", staging: "v2?"}, "v1", "v1"},
		{"staging sealed, not swapped", state{path: "v1", staging: "v2"}, "v1", "v1"},
		{"between the renames", state{staging: "v2", previous: "v1"}, "v2", "v2"},
		{"swapped, previous not removed", state{path: "v2", previous: "v1"}, "v2", "v2"},
		{"previous half-deleted", state{path: "v2", deleting: "v1!"}, "v2", "v2"},
		{"damaged name, previous aside", state{path: "v2!", previous: "v1"}, "v1", "v1"},
		{"unsealed folder only", state{path: "v0?"}, "none", "v0"},
		{"unsealed folder, new staging sealed", state{path: "v0?", staging: "v1"}, "v1", "v1"},
		{"nothing", state{staging: "v1?"}, "none", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			f := Folder{Path: filepath.Join(root, "ck")}
			for dir, v := range map[string]string{f.Path: tt.s.path, f.Staging(): tt.s.staging, f.Previous(): tt.s.previous, deleting(f.Previous()): tt.s.deleting} {
				if v == "" {
					continue
				}
				name := strings.TrimRight(v, "?!")
				version(t, dir, name, !strings.HasSuffix(v, "?"))
				if strings.HasSuffix(v, "!") {
					os.Remove(filepath.Join(dir, "version.txt"))
					os.WriteFile(filepath.Join(dir, "version.txt"), []byte(name+" cut"), 0o644) // a different size
				}
			}
			got, ok := f.Resolve()
			if gotV := contentOf(got); ok && gotV != tt.resolve || !ok && tt.resolve != "none" {
				t.Errorf("Resolve = %s (%q, ok %v); want %s", filepath.Base(got), gotV, ok, tt.resolve)
			}
			if err := f.Recover(); err != nil {
				t.Fatal(err)
			}
			if got := contentOf(f.Path); got != tt.after {
				t.Errorf("after Recover the folder holds %q; want %q", got, tt.after)
			}
			want := "ck"
			if tt.after == "none" {
				want = ""
			}
			if got := names(t, root); got != want {
				t.Errorf("after Recover the parent holds %q; want %q", got, want)
			}
		})
	}
}

func TestPublishReplacesAndRemoveDeletes(t *testing.T) {
	root := t.TempDir()
	var steps []string
	f := Folder{Path: filepath.Join(root, "ck"), Hook: func(s string) { steps = append(steps, s) }}
	for _, v := range []string{"v1", "v2"} {
		tmp, err := f.Stage()
		if err != nil {
			t.Fatal(err)
		}
		version(t, tmp, v, false)
		if err := f.Publish(); err != nil {
			t.Fatal(err)
		}
		if got := contentOf(f.Path); got != v || !Complete(f.Path) {
			t.Fatalf("after publishing %s the folder holds %q (complete %v)", v, got, Complete(f.Path))
		}
		if got := names(t, root); got != "ck" {
			t.Fatalf("after publishing %s the parent holds %q", v, got)
		}
	}
	if !strings.Contains(strings.Join(steps, "|"), "rename ck ck.old") || !strings.Contains(strings.Join(steps, "|"), "rename .ck.partial ck done") {
		t.Errorf("steps = %q; want the swap's renames", steps)
	}
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, root); got != "" {
		t.Fatalf("after Remove the parent holds %q", got)
	}
}

func TestCompleteChecksEveryListedFile(t *testing.T) {
	dir := t.TempDir()
	version(t, dir, "v1", true)
	if !Complete(dir) || Damaged(dir) {
		t.Fatal("a sealed folder is not complete")
	}
	os.Remove(filepath.Join(dir, "version.txt"))
	if Complete(dir) || !Damaged(dir) {
		t.Fatal("a sealed folder that lost a file still counts as complete")
	}
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"files":`), 0o644)
	if Complete(dir) {
		t.Fatal("a truncated manifest counts as complete")
	}
}
