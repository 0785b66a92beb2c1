package launch

import (
	"strconv"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/kernel/internal/program"
)

func TestCompileErrorsOfGoBuildComeBackAtCells(t *testing.T) {
	r := program.NewRecord()
	r.Define(program.Decl{Kind: "func", Names: []string{"f"}, Text: "func f() int {\n\treturn g()\n}", At: program.Origin{Cell: 4, Line: 2, Col: 1}})
	p, err := r.Program("f")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Count(p.Source[:strings.Index(p.Source, "return g")], "\n") + 1
	out := "# goaccel.notebook/worker\n./notebook.go:" + strconv.Itoa(line) + ":9: undefined: g\n"
	e := compileError(p, out)
	if len(e.Lines) != 1 || e.Lines[0] != "cell [4], line 3:9: undefined: g" || e.Where == nil || strings.TrimSpace(e.Where.Code) != "return g()" {
		t.Errorf("compileError = %+v (%+v)", e, e.Where)
	}
	var b strings.Builder
	translating{&b, p.Map}.Write([]byte("[rank 1] \t/tmp/x/notebook.go:" + strconv.Itoa(line) + " +0x1d\n"))
	if b.String() != "[rank 1] \tcell [4], line 3 +0x1d\n" {
		t.Errorf("translated output %q", b.String())
	}
}

func TestModulePathForAnExportFolder(t *testing.T) {
	for dir, want := range map[string]string{"./Train Job": "notebook.local/train-job", "/tmp/x/mnist_ddp/": "notebook.local/mnist_ddp", ".": "notebook.local/program"} {
		if got := modulePathFor(dir); got != want {
			t.Errorf("modulePathFor(%q) = %q; want %q", dir, got, want)
		}
	}
}
