package tests

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// browserKernel is the kernel a browser test drives and the cells it runs.
// The expectations are substrings of what classic Notebook renders.
type browserKernel struct {
	name        string // kernelspec name
	displayName string // what the notebook's kernel indicator shows
	language    string // language_info.name in kernel_info_reply

	printCell, printWant   string // prints a variable it defines
	resultCell, resultWant string // final bare expression
	htmlCell               string // displays <b id="gobold">bold</b>
	errorCell, errorWant   string // fails with this error text
	errorLine              string // how its traceback names the failing line
	loopCell, loopStarted  string // prints loopStarted, then loops forever
	interruptWant          string // lower-case text of the interrupt error
	afterCell, afterWant   string // runs after the interrupt, reading state
}

// goaccelBrowserKernel is the kernel the test exists for.
var goaccelBrowserKernel = browserKernel{
	name:          "goaccel",
	displayName:   "Go (goaccel)",
	language:      "go",
	printCell:     "import \"fmt\"\n\nx := 42\nfmt.Println(\"hello from go\", x)",
	printWant:     "hello from go 42",
	resultCell:    "x * 2",
	resultWant:    "84",
	htmlCell:      "import \"github.com/goaccel/goaccel/display\"\n\ndisplay.HTML(\"<b id=\\\"gobold\\\">bold</b>\")",
	errorCell:     "import \"strconv\"\n\n_, err := strconv.Atoi(\"x12\")\nif err != nil {\n\tpanic(err)\n}",
	errorWant:     `strconv.Atoi: parsing "x12": invalid syntax`,
	errorLine:     "line 5", // the panic call itself
	loopCell:      "fmt.Println(\"loop started\")\nfor {\n}",
	loopStarted:   "loop started",
	interruptWant: "interrupt",
	afterCell:     "fmt.Println(\"alive after interrupt\", x)",
	afterWant:     "alive after interrupt 42",
}

// ipykernelBrowserKernel runs the same notebook against ipykernel, to tell a
// harness problem from a kernel problem (GOACCEL_BROWSER_KERNEL=python3).
var ipykernelBrowserKernel = browserKernel{
	name:          "python3",
	displayName:   "Python 3 (ipykernel)",
	language:      "python",
	printCell:     "x = 42\nprint(\"hello from go\", x)",
	printWant:     "hello from go 42",
	resultCell:    "x * 2",
	resultWant:    "84",
	htmlCell:      "from IPython.display import HTML, display\ndisplay(HTML('<b id=\"gobold\">bold</b>'))",
	errorCell:     "int(\"x12\")",
	errorWant:     `invalid literal for int() with base 10: 'x12'`,
	errorLine:     "line 1",
	loopCell:      "print(\"loop started\", flush=True)\nwhile True:\n    pass",
	loopStarted:   "loop started",
	interruptWant: "keyboardinterrupt",
	afterCell:     "print(\"alive after interrupt\", x)",
	afterWant:     "alive after interrupt 42",
}

// TestBrowserNotebookRunsGoCells opens a goaccel notebook in classic Jupyter
// Notebook in headless Chromium, runs every cell and checks what the page
// renders: printed text, the execute_result, an HTML display and a Go error.
// It then interrupts an infinite loop through the notebook's Kernel →
// Interrupt path and checks the kernel still runs the next cell.
//
// GOACCEL_BROWSER_KERNEL=python3 runs the same steps against ipykernel, which
// tells a harness problem from a goaccel one. On failure the test logs the
// cells as the page shows them, the browser console, the server log, and the
// paths of a screenshot and the page's HTML (in GOACCEL_TEST_ARTIFACTS, or a
// new directory under the system's temporary directory that outlives the test).
func TestBrowserNotebookRunsGoCells(t *testing.T) {
	requireBrowserTools(t)
	k := goaccelBrowserKernel
	if os.Getenv("GOACCEL_BROWSER_KERNEL") == "python3" {
		k = ipykernelBrowserKernel
	}

	// Cleanups run last-in first-out, so directories made here outlive
	// every process started below.
	dataDir := t.TempDir()
	if k.name == goaccelBrowserKernel.name {
		installGoaccelKernel(t, dataDir)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// The server and the browser start side by side.
	srv := startNotebookServer(t, dataDir)
	nb := writeBrowserNotebook(t, srv.notebookDir, k)
	p := openBrowserPage(ctx, t)
	srv.waitReady(ctx, t)

	start := time.Now()
	p.open(srv.notebookURL(nb))
	t.Logf("notebook page loaded in %v", time.Since(start).Round(time.Millisecond))
	p.waitKernelReady(k, 45*time.Second)
	t.Logf("kernel %s connected and idle %v after the page opened", k.name, time.Since(start).Round(time.Millisecond))

	// Cells 0-3 of the notebook: print, result, HTML, error (last, so that
	// stop_on_error aborts nothing).
	start = time.Now()
	p.menu("#celllink", "#run_all_cells > a") // Cell → Run All
	cells := p.waitCellsDone([]int{0, 1, 2, 3}, 30*time.Second)
	p.poll("the kernel indicator to show idle", `$('#kernel_indicator_icon').hasClass('kernel_idle_icon')`, 10*time.Second)
	t.Logf("run all: %d cells finished in %v", len(cells), time.Since(start).Round(time.Millisecond))

	checks := []func(*testing.T, cellState, browserKernel){checkPrintCell, checkResultCell, checkHTMLCell, checkErrorCell}
	for i, check := range checks {
		check(t, cells[i], k)
		if i < len(checks)-1 && cells[i].has("output_error") {
			t.Errorf("cell %d failed with %q; Run All stops at an error (stop_on_error), so the cells after it were aborted and not checked",
				i, cells[i].text("output_error"))
			break
		}
	}
	if t.Failed() {
		p.fatalf("Run All rendered the cells wrongly (errors above); the interrupt check builds on them and did not run")
	}

	checkInterrupt(t, p, k)
}

func checkPrintCell(t *testing.T, c cellState, k browserKernel) {
	t.Helper()
	if got := c.text("output_stdout"); !strings.Contains(got, k.printWant) {
		t.Errorf("cell 0 (%q): stdout output %q does not contain %q", k.printCell, got, k.printWant)
	}
	if c.has("output_result") {
		t.Errorf("cell 0 (%q) ends in a print and must show no execute_result; got %q", k.printCell, c.text("output_result"))
	}
}

func checkResultCell(t *testing.T, c cellState, k browserKernel) {
	t.Helper()
	got := c.text("output_result")
	if !c.has("output_result") || strings.TrimSpace(got) != k.resultWant {
		t.Errorf("cell 1 (%q): execute_result %q, want %q", k.resultCell, got, k.resultWant)
	}
	if c.OutPrompt == "" || !strings.Contains(c.OutPrompt, "Out[") {
		t.Errorf("cell 1 (%q): execute_result has no Out[n] prompt (prompt %q)", k.resultCell, c.OutPrompt)
	}
}

func checkHTMLCell(t *testing.T, c cellState, _ browserKernel) {
	t.Helper()
	if !c.has("output_html") {
		t.Errorf("cell 2: no text/html output rendered; outputs %v", c.Outputs)
	}
	if c.GoBold != "B:bold" {
		t.Errorf("cell 2: #gobold inside the cell's output is %q, want a rendered <b> with text \"bold\" (B:bold)", c.GoBold)
	}
	if strings.Contains(c.text(""), `<b id=`) {
		t.Errorf("cell 2: the HTML shows as escaped text %q, not rendered", c.text(""))
	}
}

func checkErrorCell(t *testing.T, c cellState, k browserKernel) {
	t.Helper()
	if n := c.count("output_error"); n != 1 {
		t.Errorf("cell 3 (%q): %d error outputs, want exactly 1; outputs %v", k.errorCell, n, c.Outputs)
	}
	if got := c.text("output_error"); !strings.Contains(got, k.errorWant) {
		t.Errorf("cell 3 (%q): error output %q does not contain %q", k.errorCell, got, k.errorWant)
	}
	if got := c.text("output_error"); !strings.Contains(got, k.errorLine) {
		t.Errorf("cell 3 (%q): error output %q does not point at the failing line (%q)", k.errorCell, got, k.errorLine)
	}
}

// checkInterrupt runs an infinite loop, interrupts it the way the Kernel →
// Interrupt menu item does, and runs one more cell on the same kernel.
func checkInterrupt(t *testing.T, p *browserPage, k browserKernel) {
	t.Helper()
	loop := p.appendAndRun(k.loopCell)
	// The loop is running once its first line's output reached the page;
	// an interrupt sent earlier could arrive before the cell starts.
	p.waitCellText(loop, "output_stdout", k.loopStarted, 20*time.Second)
	start := time.Now()
	p.menu("#kernellink", "#int_kernel > a") // Kernel → Interrupt
	c := p.waitCellsDone([]int{loop}, 15*time.Second)[0]
	t.Logf("interrupt: loop cell finished %v after Kernel → Interrupt", time.Since(start).Round(time.Millisecond))
	if n := c.count("output_error"); n != 1 {
		p.fatalf("interrupted cell (%q): %d error outputs, want exactly 1; outputs %v", k.loopCell, n, c.Outputs)
	}
	if got := c.text("output_error"); !strings.Contains(strings.ToLower(got), k.interruptWant) {
		p.fatalf("interrupted cell (%q): error output %q does not mention %q", k.loopCell, got, k.interruptWant)
	}

	after := p.appendAndRun(k.afterCell)
	c = p.waitCellsDone([]int{after}, 20*time.Second)[0]
	if got := c.text("output_stdout"); !strings.Contains(got, k.afterWant) {
		p.fatalf("cell after the interrupt (%q): stdout %q does not contain %q (kernel lost or state gone?)", k.afterCell, got, k.afterWant)
	}
	if c.has("output_error") {
		p.fatalf("cell after the interrupt (%q) failed: %q", k.afterCell, c.text("output_error"))
	}
}
