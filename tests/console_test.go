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
// front end, each stack's `jupyter console` (one cell per input line with
// --simple-prompt): state kept across cells, results with Out[n], an error
// that does not end the session, and a clean shutdown on exit.
func TestJupyterConsoleRunsCells(t *testing.T) {
	dataDir := e2eKernel(t)
	forEachStack(t, append([]string{"jupyter_console"}, clientModules...), func(t *testing.T, s jupyterStack) {
		runConsoleChecks(t, s, dataDir)
	})
}

func runConsoleChecks(t *testing.T, s jupyterStack, dataDir string) {
	input := strings.Join([]string{
		`x := 6 * 7`,
		`x`,
		`undefinedThing + 1`,
		`fmt.Println("still here", x+1)`,
		`strings.Repeat("go", 3)`,
		`os.Stdout.WriteString("written to the os.File\n")`,
	}, "\n") + "\n"
	// The kernel's debug log goes into the output: if the console ever waits
	// forever again, it shows which status went out with no iopub
	// subscriber ("published … iopub_topics=0"). That was the cause of a hang
	// seen under a fully loaded 2-core machine: the console sends its first
	// cell as soon as kernel_info_reply arrives and waits, with no timeout,
	// for the cell's status idle on iopub, and zmq4's PUB dropped that status
	// because the console's subscription had not reached the kernel yet. The
	// kernel now holds its first reply until iopub has a subscriber
	// (kernel.TestFirstReplyWaitsForAnIOPubSubscriber).
	text, err := runConsole(s, dataDir, input)
	t.Logf("jupyter console output:\n%s", text)
	if err != nil {
		t.Fatalf("jupyter console: %v", err)
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
		{"os.Stdout is still an *os.File in cells", `written to the os.File`},
		{"the kernel shuts down at the end of input", `Shutting down kernel`},
	}
	for _, w := range wants {
		if !regexp.MustCompile(w.re).MatchString(text) {
			t.Errorf("%s: output does not match %q", w.what, w.re)
		}
	}
}

// runConsole feeds input to the stack's `jupyter console --simple-prompt`
// with the goaccel kernel (its debug log included in the output) and returns
// what it printed.
func runConsole(s jupyterStack, dataDir, input string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 75*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.command("jupyter"), "console", "--kernel=goaccel", "--simple-prompt")
	cmd.Env = s.env(append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1", "GOACCEL_LOG=debug"))
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
