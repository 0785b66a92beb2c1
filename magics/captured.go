package magics

import (
	"fmt"
	"io"

	"github.com/goaccel/goaccel/internal/host"
)

// CapturedIO is what a %%capture cell captured: the variable `%%capture VAR`
// binds, as IPython's CapturedIO.
//
//	%%capture out
//	fmt.Println("quiet")
//
//	out.Stdout // "quiet\n"
//	out.Show() // prints it and re-displays the captured outputs
type CapturedIO struct {
	Stdout  string           // what the cell printed to stdout
	Stderr  string           // what the cell printed to stderr
	Outputs []map[string]any // the rich outputs (display_data contents, then the cell's result), in order

	show captureWriters
}

// captureWriters is the pair of writers a CapturedIO shows its text on.
type captureWriters struct{ stdout, stderr io.Writer }

// NewCapturedIO returns an empty CapturedIO whose Show writes to stdout and stderr.
func NewCapturedIO(stdout, stderr io.Writer) *CapturedIO {
	return &CapturedIO{show: captureWriters{stdout, stderr}}
}

// Show writes the captured text back to the notebook and displays the
// captured outputs again.
func (c *CapturedIO) Show() {
	if c.show.stdout != nil {
		fmt.Fprint(c.show.stdout, c.Stdout)
	}
	if c.show.stderr != nil {
		fmt.Fprint(c.show.stderr, c.Stderr)
	}
	if sink := host.Current().Display; sink != nil {
		for _, o := range c.Outputs {
			sink.Send("display_data", o)
		}
	}
}

// String summarises the capture, for a cell that shows the variable.
func (c *CapturedIO) String() string {
	return fmt.Sprintf("CapturedIO(stdout: %d bytes, stderr: %d bytes, outputs: %d)", len(c.Stdout), len(c.Stderr), len(c.Outputs))
}
