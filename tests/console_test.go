package tests

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestJupyterConsoleRunsCells drives the installed kernel from a terminal
// front end, Debian's `jupyter console` (one cell per input line with
// --simple-prompt): state kept across cells, results with Out[n], an error
// that does not end the session, and a clean shutdown on exit.
func TestJupyterConsoleRunsCells(t *testing.T) {
	requireJupyterClient(t)
	if _, err := os.Stat("/usr/bin/jupyter-console"); err != nil {
		t.Skipf("skipping: jupyter-console is not installed (scripts/deps.sh installs it): %v", err)
	}
	dataDir := e2eKernel(t)
	input := strings.Join([]string{
		`x := 6 * 7`,
		`x`,
		`undefinedThing + 1`,
		`fmt.Println("still here", x+1)`,
		`strings.Repeat("go", 3)`,
	}, "\n") + "\n"
	var text string
	for attempt := 1; ; attempt++ {
		out, err := runConsole(dataDir, input)
		text = out
		t.Logf("jupyter console output (attempt %d):\n%s", attempt, text)
		if err == nil {
			break
		}
		// Seen once in ~10 runs under a fully loaded 2-core machine: the
		// console waits forever on its first cell. The kernel log
		// (GOACCEL_LOG=debug, above) is kept for diagnosis; one retry keeps
		// the suite from failing on that while the cause is open.
		if attempt == 2 {
			t.Fatalf("jupyter console: %v", err)
		}
		t.Logf("jupyter console attempt %d failed (%v); retrying once", attempt, err)
	}
	wants := []struct {
		what string
		re   string
	}{
		{"the banner names the kernel", `goaccel \S+: Go cells`},
		{"a result keeps the variable of the previous cell", `Out\[2\]: 42`},
		{"an error names the undefined identifier", `CompileError: .*undefined: undefinedThing`},
		{"the session survives the error", `still here 43`},
		{"an auto-imported package's result", `Out\[5\]: gogogo`},
		{"the kernel shuts down at the end of input", `Shutting down kernel`},
	}
	for _, w := range wants {
		if !regexp.MustCompile(w.re).MatchString(text) {
			t.Errorf("%s: output does not match %q", w.what, w.re)
		}
	}
}

// runConsole feeds input to `jupyter console --simple-prompt` with the
// goaccel kernel (its debug log included in the output) and returns what it
// printed.
func runConsole(dataDir, input string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 75*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/jupyter", "console", "--kernel=goaccel", "--simple-prompt")
	cmd.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1", "GOACCEL_LOG=debug")
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
