package notebook_launcher

import (
	"github.com/goaccel/goaccel/notebook_launcher/workers"
	"github.com/goaccel/goaccel/widgets"
)

// Stop asks every launch the notebook's cells started in this process to
// stop gracefully: each worker finishes the training step it is in, the
// ranks agree on the step to stop at, and each launch returns what rank 0's
// function returns (the cell gets its result, as after a normal end). A
// training loop over a prepared loader ends at the next batch by itself; any
// other loop asks acc.StopRequested(). It returns how many launches it
// asked: 0 outside a kernel or with none running. An interrupt (■), by
// contrast, stops the workers at once and the launch returns nothing.
func Stop() int {
	if f := workers.InstalledCellStop(); f != nil {
		return f()
	}
	return 0
}

// StopButton returns a Stop button: a click, even while the launching cell
// runs, calls Stop. Show it before launching, in the same cell:
//
//	widgets.Display(notebook_launcher.StopButton())
//	%accelerate launch --num_processes 2 -o m train(cfg)
//
// It greys out once clicked, and says so when no launch was running.
func StopButton() *widgets.Button {
	b := widgets.NewButton("Stop")
	_ = b.SetButtonStyle("danger")
	b.SetIcon("stop")
	b.SetTooltip("finish the current training step on every worker, then return what the run has")
	go func() {
		// A click reaches Clicked at once, on the goroutine that delivers
		// the front end's messages; this compiled goroutine acts on it while
		// the launching cell still runs, which a callback (cell code) could
		// not.
		for {
			<-b.Clicked()
			if Stop() > 0 {
				b.SetDescription("Stopping…")
				b.SetDisabled(true)
				return
			}
			b.SetDescription("Stop (no launch running)")
		}
	}()
	return b
}
