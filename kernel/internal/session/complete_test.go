package session

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	s, _ := newSession(t)
	ctx := context.Background()
	for _, c := range []string{
		"import \"strings\"",
		"counter := 3\ncountdown := []int{1}",
		"type config struct {\n\tName string\n\tsteps int\n}\nfunc (c config) Describe() string { return c.Name }",
		"cfg := config{Name: \"run\"}",
		"var sb strings.Builder",
	} {
		if r := s.Execute(ctx, c); r.Error != nil {
			t.Fatalf("%q: %s", c, r.Error.Evalue)
		}
	}
	tests := []struct {
		name       string
		code       string
		cursor     int // -1 = end of code
		want       []string
		start, end int
	}{
		{"session variables", "x := coun", -1, []string{"countdown", "counter"}, 5, 9},
		{"package members", "strings.ToU", -1, []string{"ToUpper", "ToUpperSpecial"}, 8, 11},
		{"package not yet imported", "math.Sq", -1, []string{"Sqrt", "Sqrt2", "SqrtE", "SqrtPhi", "SqrtPi"}, 5, 7},
		{"our packages", "display.HT", -1, []string{"HTML", "HTMLer"}, 8, 10},
		{"struct fields and methods of a cell type", "cfg.", -1, []string{"Describe", "Name", "steps"}, 4, 4},
		{"methods of a compiled type", "sb.WriteS", -1, []string{"WriteString"}, 3, 9},
		{"keywords", "fun", -1, []string{"func"}, 0, 3},
		{"cursor in the middle, code points", "é := coun + 1", 9, []string{"countdown", "counter"}, 5, 9},
		{"imported package name", "strin", -1, []string{"string", "strings"}, 0, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cursor := tt.cursor
			if cursor < 0 {
				cursor = len([]rune(tt.code))
			}
			got, start, end := s.Complete(tt.code, cursor)
			if !reflect.DeepEqual(got, tt.want) || start != tt.start || end != tt.end {
				t.Errorf("Complete(%q, %d) = %v [%d,%d), want %v [%d,%d)", tt.code, cursor, got, start, end, tt.want, tt.start, tt.end)
			}
		})
	}
}

func TestInspectAndDoc(t *testing.T) {
	s, _ := newSession(t)
	ctx := context.Background()
	if r := s.Execute(ctx, "func area(w, h float64) float64 { return w * h }\nside := 2.5"); r.Error != nil {
		t.Fatal(r.Error.Evalue)
	}
	tests := []struct {
		name, code string
		cursor     int
		want       []string // substrings of the page
	}{
		{"standard library function", "strings.Split(", 14, []string{"func Split(s, sep string) []string", "Split slices s into all substrings"}},
		{"cursor inside the name", "x := strings.Split(a, b)", 15, []string{"func Split(s, sep string) []string"}},
		{"method of a standard type", "strings.Builder.WriteString", 27, []string{"func (b *Builder) WriteString(s string) (int, error)"}},
		{"our package", "display.HTML", 12, []string{"func HTML(html string) error", "HTML fragment"}},
		{"gonum plot", "plot.New", 8, []string{"func New() *Plot"}},
		{"session function", "area(1, 2)", 2, []string{"func area(w, h float64) float64"}},
		{"session variable", "side", 4, []string{"side float64 = 2.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, data := s.Inspect(tt.code, tt.cursor, 0)
			page, _ := data["text/plain"].(string)
			if !found {
				t.Fatalf("Inspect(%q, %d): not found", tt.code, tt.cursor)
			}
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q:\n%s", w, page)
				}
			}
		})
	}
	if found, data := s.Inspect("area", 2, 1); !found || !strings.Contains(data["text/plain"].(string), "return w * h") {
		t.Errorf("inspect with detail: %v %v", found, data)
	}
	if r := s.Execute(ctx, "area??"); len(r.Payload) != 1 || !strings.Contains(r.Payload[0]["data"].(map[string]any)["text/plain"].(string), "return w * h") {
		t.Errorf("area??: %+v", r)
	}
	if found, _ := s.Inspect("nothingHere", 5, 0); found {
		t.Error("Inspect of an unknown name: found")
	}
}

func TestQuestionMarkAndDocMagicReturnAPagePayload(t *testing.T) {
	s, _ := newSession(t)
	for _, code := range []string{"strings.Split?", "%doc strings.Split"} {
		r := s.Execute(context.Background(), code)
		if r.Error != nil || len(r.Payload) != 1 {
			t.Fatalf("%q: %+v", code, r)
		}
		p := r.Payload[0]
		text := p["data"].(map[string]any)["text/plain"].(string)
		if p["source"] != "page" || p["start"] != 0 || !strings.Contains(text, "func Split(s, sep string) []string") {
			t.Errorf("%q: payload %v", code, p)
		}
	}
	if r := s.Execute(context.Background(), "nope.Nothing?"); r.Error == nil {
		t.Error("doc of an unknown symbol: want an error")
	}
}

func TestIsCompleteUsesTheParser(t *testing.T) {
	s, _ := newSession(t)
	if st, ind := s.IsComplete("func f() {"); st != "incomplete" || ind != "\t" {
		t.Errorf("IsComplete = %q %q", st, ind)
	}
}
