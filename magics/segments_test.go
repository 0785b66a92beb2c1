package magics

import (
	"reflect"
	"strings"
	"testing"
)

// balanced stands in for the Go completeness check: braces and backquotes
// closed.
func balanced(src string) bool {
	return strings.Count(src, "{") == strings.Count(src, "}") && strings.Count(src, "`")%2 == 0
}

func TestSegmentsSplitAtLineMagicsAfterCompleteCode(t *testing.T) {
	tests := []struct {
		name, cell string
		want       []string
	}{
		{"go only", "x := 1\ny := 2", []string{"x := 1\ny := 2"}},
		{"leading magics only", "%time\n%env A=1\nx := 1", []string{"%time\n%env A=1\nx := 1"}},
		{"magic after code", "ch := make(chan int)\nfunc f(c chan int) {}\n%accelerate launch f(ch)",
			[]string{"ch := make(chan int)\nfunc f(c chan int) {}", "\n\n%accelerate launch f(ch)"}},
		{"code after the magic stays with it", "x := 1\n%env A=1\ny := x",
			[]string{"x := 1", "\n%env A=1\ny := x"}},
		{"two later magics", "a := 1\n%env A=1\nb := 2\n%env B=2\n!ls",
			[]string{"a := 1", "\n%env A=1\nb := 2", "\n\n\n%env B=2\n!ls"}},
		{"percent inside a raw string is not a magic", "s := `\n%d items\n`\nfmt.Printf(s, 3)",
			[]string{"s := `\n%d items\n`\nfmt.Printf(s, 3)"}},
		{"percent inside a block is not a magic", "func f() {\n%x\n}", []string{"func f() {\n%x\n}"}},
		{"cell magic", "%%bash\necho hi\n%env A=1", []string{"%%bash\necho hi\n%env A=1"}},
		{"a later %% line is not split", "x := 1\n%%bash", []string{"x := 1\n%%bash"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Segments(tt.cell, balanced); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Segments(%q) = %q, want %q", tt.cell, got, tt.want)
			}
		})
	}
}
