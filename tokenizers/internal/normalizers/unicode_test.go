package normalizers

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// TestNormalizersMatchTokenizersOnEveryCodePoint applies each normaliser to
// every code point alone and compares with tokenizers
// (testdata/unicode_probes.json.gz, made by testdata/probe_unicode.py).
func TestNormalizersMatchTokenizersOnEveryCodePoint(t *testing.T) {
	f, err := os.Open("../../testdata/unicode_probes.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var probes map[string]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&probes); err != nil {
		t.Fatal(err)
	}
	yes := true
	norms := map[string]Normalizer{
		"bert_clean":         &Bert{CleanText: true},
		"bert_strip_accents": &Bert{StripAccents: &yes},
		"strip_accents":      StripAccents{},
		"lowercase":          Lowercase{},
		"nfd":                &Unicode{},
		"nfkd":               &Unicode{Compat: true},
		"nfc":                &Unicode{Compose: true},
		"nfkc":               &Unicode{Compose: true, Compat: true},
	}
	names := make([]string, 0, len(norms))
	for n := range norms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		n := norms[name]
		t.Run(name, func(t *testing.T) {
			var p struct {
				Removed [][2]rune         `json:"removed"`
				Changed map[string]string `json:"changed"`
			}
			if err := json.Unmarshal(probes[name], &p); err != nil {
				t.Fatal(err)
			}
			want := map[rune]string{}
			for _, r := range p.Removed {
				for c := r[0]; c <= r[1]; c++ {
					want[c] = ""
				}
			}
			for k, v := range p.Changed {
				c, _ := strconv.Atoi(k)
				want[rune(c)] = v
			}
			bad := 0
			var sample []string
			for c := rune(0); c <= 0x10FFFF; c++ {
				if c >= 0xD800 && c <= 0xDFFF {
					continue
				}
				s := normstr.New(string(c))
				if err := n.Normalize(s); err != nil {
					t.Fatal(err)
				}
				w, ok := want[c]
				if !ok {
					w = string(c)
				}
				if s.Normalized != w {
					bad++
					if len(sample) < 40 {
						sample = append(sample, fmt.Sprintf("U+%04X: %+q want %+q", c, s.Normalized, w))
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d code points differ: %v", bad, sample)
			}
		})
	}
}
