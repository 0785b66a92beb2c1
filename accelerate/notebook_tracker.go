package accelerate

import (
	"github.com/goaccel/goaccel/internal/displaysink"
	"github.com/goaccel/goaccel/plots"
)

// notebookTracker draws every logged metric as a live line plot under the
// cell that runs the training (plots.Live, redrawn at most every half
// second). Outside the kernel (no display sink) it does nothing, not even
// render.
type notebookTracker struct {
	live *plots.Live
}

func newNotebookTracker() *notebookTracker { return &notebookTracker{} }

func (n *notebookTracker) Start(project string, _ map[string]any) error {
	if displaysink.Get() != nil {
		n.live = plots.NewLive(project)
	}
	return nil
}

func (n *notebookTracker) Log(values map[string]float64, step int) error {
	if n.live == nil {
		return nil
	}
	return n.live.Add(step, values)
}

func (n *notebookTracker) Finish() error {
	if n.live == nil {
		return nil
	}
	return n.live.Flush()
}
