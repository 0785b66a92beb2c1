package repl

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/internal/celllaunch"
)

// TestMain lets the test binary be its own interpreted worker: the session
// starts os.Executable() with the worker subcommand.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == celllaunch.WorkerCommand {
		os.Exit(celllaunch.WorkerMain())
	}
	os.Exit(m.Run())
}

func TestLaunchFromACell(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	s, out := newSession(t)
	for _, c := range []string{
		"type Config struct{ Scale float64; name string }",
		"func train(c Config, xs []float64) map[string]float64 {\n\tfmt.Println(\"rank\", os.Getenv(\"RANK\"), c.name)\n\tsum := 0.0\n\tfor _, x := range xs {\n\t\tsum += x * c.Scale\n\t}\n\treturn map[string]float64{\"sum\": sum}\n}",
		"cfg := Config{Scale: 2, name: \"cfg\"}",
	} {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("%s: %v", c, r.Error)
		}
	}
	out.Reset()
	r := s.Execute(context.Background(), "%accelerate launch --num_processes 2 -o m train(cfg, []float64{1, 2, 3})")
	if r.Error != nil {
		t.Fatalf("launch: %+v\n%s", r.Error, out.String())
	}
	t.Logf("result %v\noutput:\n%s", r.Data, out.String())
	r = s.Execute(context.Background(), `m["sum"]`)
	if r.Error != nil || r.Data["text/plain"] != "12" {
		t.Errorf("m[sum] = %+v %v", r.Data, r.Error)
	}
	if !strings.Contains(out.String(), "[rank 1] rank 1 cfg") {
		t.Errorf("output lacks rank 1's line:\n%s", out.String())
	}
}

func TestScratchLaunchErrors(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	s, out := newSession(t)
	for _, c := range []string{
		"import nl \"github.com/goaccel/goaccel/notebook_launcher\"",
		"func boom(n int) {\n\tif os.Getenv(\"RANK\") == \"1\" {\n\t\tvar xs []int\n\t\t_ = xs[n]\n\t}\n}",
		"data := []int{1}",
		"func usesData() int { return len(data) }",
		"type T struct{ A int }\nfunc get(t T) int { return t.A }",
		"type T struct{ B int }",
		"r, err := nl.Launch(boom, nl.Options{NumProcesses: 2}, 5)",
		"err",
		"%accelerate launch usesData",
		"%accelerate launch get(T{})",
		"%accelerate launch boom(make(chan int))",
		"nl.Launch(boom, nl.Options{NumProcesses: 2}, 5)\nfmt.Println(\"after\")",
	} {
		out.Reset()
		r := s.Execute(context.Background(), c)
		t.Logf("%s\n=> %v %+v\nout: %s", c, r.Data, r.Error, out.String())
	}
}
