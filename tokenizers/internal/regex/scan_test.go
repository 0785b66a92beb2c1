package regex

import (
	"encoding/json"
	"math/rand"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestScannersMatchTheGeneralEngine runs the hand-written GPT-2 and Llama 3
// scanners and regexp2 on the test sentences and on random strings made of
// the characters the patterns treat differently.
func TestScannersMatchTheGeneralEngine(t *testing.T) {
	data, err := os.ReadFile("../../testdata/sentences.json")
	if err != nil {
		t.Fatal(err)
	}
	var sents []struct{ Text string }
	if err := json.Unmarshal(data, &sents); err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, s := range sents {
		inputs = append(inputs, s.Text)
	}
	alphabet := []string{"a", "B", "é", "中", "1", "٣", "Ⅻ", " ", "  ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u3000", "'", "s", "S", "t", "re", "RE", "ve", "ll", "LL", "m", "d", "D", "!", "?", ".", "-", "😀", "\u0301", "_", "\x00"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := rng.Intn(12); k >= 0; k-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, pat := range []string{GPT2Pattern, Llama3Pattern} {
		fast, err := Compile(pat)
		if err != nil {
			t.Fatal(err)
		}
		if fast.scan == nil {
			t.Fatalf("%q has no scanner", pat)
		}
		slow := fast.General()
		bad := 0
		for _, s := range inputs {
			got, _ := fast.Find(s)
			want, err := slow.Find(s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				bad++
				if bad <= 5 {
					t.Errorf("%.20q on %q: scanner %v, regexp2 %v", pat, s, got, want)
				}
			}
		}
	}
}

// TestLlama3ScannerFoldsLongS pins what Oniguruma does and regexp2 does not:
// (?i:'s) matches "'ſ" (U+017F folds to s), checked with tokenizers 0.23.3.
func TestLlama3ScannerFoldsLongS(t *testing.T) {
	re, err := Compile(Llama3Pattern)
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string][][2]int{"'ſB": {{0, 3}, {3, 4}}, "'\u212aB": {{0, 5}}, "'SB": {{0, 2}, {2, 3}}} {
		if got, _ := re.Find(s); !reflect.DeepEqual(got, want) {
			t.Errorf("Find(%q) = %v, want %v", s, got, want)
		}
	}
}
