package session

import (
	"context"
	"testing"
	"time"
)

// TestOddCellsNeverCrashTheSession feeds malformed and unusual cells; each
// must come back as a result or an error, and the session must keep working.
func TestOddCellsNeverCrashTheSession(t *testing.T) {
	s, _ := newSession(t)
	ctx := context.Background()
	odd := []string{
		"}", "func", "import", "type", "x :=", "for i := range", "%%", "%", "!", "?", "a.b.c?",
		"é := 1\né", "import \"no/such/package\"", "var x int = \"s\"", "return", "break", "goto L",
		"L:", "select {}", "package main", "func main() { println(1) }", "go", "defer", "type T[", "x := []int{1,2,3}[5]",
		"var c chan int\nclose(c)", "var m map[string]int\nm[\"a\"] = 1", "type I interface{ M() }\nvar i I\ni.M()",
		"func f[T any](x T) T { return x }\nf(1)", "min()", "max(1)", "clear()", "for range 3 {}", "for x := range 2.5 {}",
		"func(){}", "struct{}{}", "[]int{}", "nil", "_", "iota", "1 / 0", "z := 0\n1 / z", "\"unterminated",
		"%env", "%cd /nonexistent-dir-x", "%time", "%%time\n", "%who",
	}
	for _, c := range odd {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q panicked the session: %v", c, r)
				}
			}()
			cctx, cancel := context.WithTimeout(ctx, 2*time.Second) // select {} blocks until interrupted
			defer cancel()
			r := s.Execute(cctx, c)
			if r.Error != nil && (r.Error.Ename == "" || len(r.Error.Traceback) == 0) {
				t.Errorf("%q: error without name or traceback: %+v", c, r.Error)
			}
		}()
	}
	if r := s.Execute(ctx, "ok := 40 + 2\nok"); r.Error != nil || r.Data["text/plain"] != "42" {
		t.Fatalf("session broken after odd cells: %+v %v", r.Error, r.Data)
	}
}
