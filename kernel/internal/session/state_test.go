package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sessionWithState is a session keeping its state in file.
func sessionWithState(t *testing.T, file string) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Stderr: &out, StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	return s, &out
}

const stateCells = "type Point struct{ X, Y int }\n" +
	"func (p Point) Sum() int { return p.X + p.Y }\n" +
	"func scaled(n int) int { return n * factor }\n" +
	"const unit = 10\n" +
	"var factor = 3\n" +
	"names := []string{\"a\", \"b\"}\n" +
	"ch := make(chan int)\n" +
	"p := Point{1, 2}"

func TestRestoreAfterACrashBringsBackDeclarationsAndNamesLostVariables(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	old, _ := sessionWithState(t, file)
	if r := old.Execute(context.Background(), stateCells); r.Error != nil {
		t.Fatalf("cell: %v", r.Error)
	}
	// A crash: the new executor has only what the state file says.
	s, out := sessionWithState(t, file)
	note := s.Restore(context.Background())
	for _, want := range []string{"declarations were restored", "variables lost", "ch", "factor", "names", "p"} {
		if !strings.Contains(note, want) {
			t.Errorf("restore note %q lacks %q", note, want)
		}
	}
	if strings.Contains(note, "variables kept") {
		t.Errorf("restore note %q: a crash keeps no values", note)
	}
	out.Reset()
	if r := s.Execute(context.Background(), `fmt.Println(Point{3, 4}.Sum(), scaled(2), unit, factor, len(names))`); r.Error != nil {
		t.Fatalf("after restore: %v", r.Error)
	}
	if got := out.String(); got != "7 0 10 0 0\n" {
		t.Errorf("after restore printed %q; want the declarations back and zero variables", got)
	}
}

func TestRestoreAfterASwitchCarriesTheValuesThatCanCross(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	old, _ := sessionWithState(t, file)
	if r := old.Execute(context.Background(), stateCells); r.Error != nil {
		t.Fatalf("cell: %v", r.Error)
	}
	if err := old.saveState(true); err != nil { // what a switch saves
		t.Fatal(err)
	}
	s, out := sessionWithState(t, file)
	note := s.Restore(context.Background())
	if !strings.Contains(note, "variables kept: factor, names, p") || !strings.Contains(note, "variables lost (now zero values; run their cells again): ch") {
		t.Errorf("restore note %q; want factor, names and p kept, ch lost", note)
	}
	out.Reset()
	if r := s.Execute(context.Background(), `fmt.Println(p.Sum(), scaled(2), names, ch == nil)`); r.Error != nil {
		t.Fatalf("after restore: %v", r.Error)
	}
	if got := out.String(); got != "3 6 [a b] true\n" {
		t.Errorf("after restore printed %q", got)
	}
	// Carried once: a later crash restores no stale values.
	if note := s.Restore(context.Background()); strings.Contains(note, "kept") {
		t.Errorf("second restore %q keeps values", note)
	}
}

func TestRestoreWithoutStateSaysSo(t *testing.T) {
	s, _ := sessionWithState(t, filepath.Join(t.TempDir(), "none.json"))
	if note := s.Restore(context.Background()); note != "" {
		t.Errorf("note %q", note)
	}
}

func TestImportOfAnUnknownPackageOutsideAKernelSaysWhatWouldWork(t *testing.T) {
	s, _ := newSession(t)
	r := s.Execute(context.Background(), `import "github.com/google/uuid"`)
	if r.Error == nil || r.Error.Ename != "ImportError" || !strings.Contains(r.Error.Evalue, "the kernel builds an executor") || len(r.Switch) > 0 {
		t.Errorf("result %+v", r)
	}
}

func TestRestoreNamesTypesAsTheCellsImportsDo(t *testing.T) {
	// The package names rand and time name something else in the session:
	// only the cells' names for the packages can declare the variables again.
	const cells = "import (\n\t\"crypto/rand\"\n\tmrand \"math/rand\"\n\ttm \"time\"\n)\n" +
		"time := \"noon\"\n" +
		"var d tm.Duration = 5\n" +
		"byName := map[string]*tm.Duration{\"a\": &d}\n" +
		"list := []tm.Duration{1, 2}\n" +
		"rng := mrand.New(mrand.NewSource(1))\n" +
		"pool := []*mrand.Rand{rng}\n" +
		"_ = rand.Reader"
	tests := []struct {
		name  string
		carry bool
		cell  string
		want  string
	}{
		// A crash: the variables come back declared, with zero values.
		{"crash", false, `fmt.Println(time, d, byName == nil, list == nil, rng == nil, pool == nil)`, " 0s true true true true\n"},
		// A switch: the values that can cross come back too.
		{"switch", true, `fmt.Println(time, d, *byName["a"], list, rng == nil, pool == nil)`, "noon 5ns 5ns [1ns 2ns] true true\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "state.json")
			old, _ := sessionWithState(t, file)
			if r := old.Execute(context.Background(), cells); r.Error != nil {
				t.Fatalf("cell: %v", r.Error)
			}
			if tt.carry {
				if err := old.saveState(true); err != nil {
					t.Fatal(err)
				}
			}
			s, out := sessionWithState(t, file)
			note := s.Restore(context.Background())
			out.Reset()
			if r := s.Execute(context.Background(), tt.cell); r.Error != nil {
				t.Fatalf("after restore (note %q): %v", note, r.Error)
			}
			if got := out.String(); got != tt.want {
				t.Errorf("after restore (note %q) printed %q; want %q", note, got, tt.want)
			}
		})
	}
}

func TestStateFileFollowsEveryChangeOfTheSession(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	s, _ := sessionWithState(t, file)
	steps := []struct {
		cell       string
		has, lacks string // in the state file after the cell
	}{
		{cell: `import tm "time"`, has: `["tm","time"]`},
		{cell: `x := 1`, has: `{"name":"x","type":"int"}`},
		{cell: `x = 2`, has: `{"name":"x","type":"int"}`},
		{cell: `x := "two"`, has: `{"name":"x","type":"string"}`},
		{cell: `func f() int { return 1 }`, has: `func f() int { return 1 }`},
		{cell: `f := tm.Second`, has: `{"name":"f","type":"tm.Duration"}`, lacks: `func f()`},
		{cell: `type T int`, has: `type T int`},
		{cell: `var t T`, has: `{"name":"t","type":"T"}`},
		{cell: `type T string`, has: `type T string`, lacks: `type T int`},
		{cell: `import T "strings"`, has: `["T","strings"]`, lacks: `type T string`},
		{cell: `%reset -f`, lacks: `"tm"`},
	}
	for _, st := range steps {
		if r := s.Execute(context.Background(), st.cell); r.Error != nil {
			t.Fatalf("%s: %v", st.cell, r.Error)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), st.has) || st.lacks != "" && strings.Contains(string(b), st.lacks) {
			t.Errorf("after %q the state file holds %s; want it to hold %q and not %q", st.cell, b, st.has, st.lacks)
		}
	}
}
