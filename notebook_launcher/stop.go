package notebook_launcher

import (
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
	"github.com/goaccel/goaccel/widgets"
)

// Stop asks every launch running in this process to stop as a first
// interrupt does (the notebook's ■ button, Ctrl-C): each worker finishes
// its current step, saves its state in its automatic checkpoint folder
// (accelerate's ProjectDir/checkpoints, the working directory's without
// one) and leaves, and the launch returns a *StoppedError naming that
// folder (a cell shows it as a Stopped error), from which a launch with
// Options.Resume (--resume) continues. Workers that cannot stop so (they
// train without a prepared loader) are stopped at once, and so are all
// workers on a second call while they save. It returns the number of
// launches it asked: 0 with none running. A cell, a widget's callback or
// any goroutine may call it. In a kernel it is the session's stop of its
// launches, which the ■ button's first interrupt also is.
func Stop() int { return stop(workers.StopSave) }

// stop stops the process's launches in mode: a kernel's session stops its
// cells' launches, a compiled program its own.
func stop(mode workers.StopMode) int {
	if cells := host.Current().Cells; cells != nil {
		return cells.StopLaunches(mode)
	}
	return workers.StopAll(mode)
}

// StopButton returns a Stop button: a click, even while the launching cell
// runs, ends the training of every running launch and lets it return its
// result. Show it before launching, in the same cell:
//
//	widgets.Display(notebook_launcher.StopButton())
//	%accelerate launch --num_processes 2 -o m train(cfg)
//
// Where Stop saves and leaves, the button finishes: every worker ends its
// training pass at a step the ranks agree on (a prepared loader's pass
// ends there, acc.StopRequested() reports it to other loops), evaluation
// under tensors.NoGrad still runs and the launch returns what rank 0's
// function returns, as after a normal end; a run with a ProjectDir saves
// its automatic checkpoint first, and the cell's output says where. It
// greys out once clicked, and says so when no launch was running.
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
			if stop(workers.StopFinish) > 0 {
				b.SetDescription("Stopping…")
				b.SetDisabled(true)
				return
			}
			b.SetDescription("Stop (no launch running)")
		}
	}()
	return b
}
