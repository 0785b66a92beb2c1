package accelerate

import (
	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/plots"
)

// notebookTracker is the "notebook" tracker: every logged metric drawn live
// under the cell that runs the training, one subplot per metric (a
// plots.Live, redrawn at most twice a second plus once at the end), and
// the images and texts of LogImages and LogText shown under it. The
// Accelerator keeps one Live, so a second InitTrackers draws its run beside
// the first in the same figure. Outside the kernel (no display in the
// process's host) it does nothing, not even record.
type notebookTracker struct {
	acc     *Accelerator
	live    *plots.Live                // nil outside a kernel
	outputs map[string]*display.Handle // the run's images and texts, by tag (notebook_tracker_media.go)
}

func (n *notebookTracker) Start(project string, config map[string]any) error {
	if !host.Current().InNotebook() {
		return nil
	}
	if n.acc.notebook == nil {
		n.acc.notebook = plots.NewLive(project)
	}
	n.live = n.acc.notebook
	return n.live.Start(project, config)
}

func (n *notebookTracker) Log(values map[string]float64, step int) error {
	if n.live == nil {
		return nil
	}
	return n.live.Log(values, step)
}

func (n *notebookTracker) Finish() error {
	if n.live == nil {
		return nil
	}
	return n.live.Finish()
}
