package accelerate

import (
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/tensors"
)

// The graceful stop of a launched run (notebook_launcher.Stop, a Stop
// button): the launcher asks every worker; each rank learns it at its own
// moment, so the ranks agree before they act, or one would leave while its
// peers wait for it in a collective.

// StopRequested reports whether the run was asked to stop gracefully. Every
// process gets the same answer at the same call (with several processes it
// takes part in a one-number all-reduce, so call it at a step boundary, the
// same number of times on every process), and once true it stays true. A
// training loop over a prepared loader needs no call: its pass ends at the
// next batch by itself. Call it where a loop goes on otherwise:
//
//	for epoch := 0; epoch < cfg.Epochs && !acc.StopRequested(); epoch++ { … }
//
// Outside a launch that can be stopped it is false and costs nothing.
func (a *Accelerator) StopRequested() bool {
	if a.stopAgreed {
		return true
	}
	local := workerinfo.StopRequested()
	if a.c.Size() > 1 {
		if !workerinfo.Stoppable() {
			return false
		}
		flag := []float32{0}
		if local {
			flag[0] = 1
		}
		must(a.c.AllReduce(flag, "max"), "StopRequested")
		local = flag[0] > 0
	}
	if local {
		a.stopAgreed = true
		if a.IsMainProcess() {
			fmt.Fprintln(os.Stderr, "accelerate: stopping as asked: training ends at this step on every process")
		}
	}
	return local
}

// StopPass ends a prepared loader's training pass when a graceful stop was
// agreed (data.PassStopper). Evaluation (under tensors.NoGrad) runs in full,
// so the run returns the metrics of what it trained. Passes of different
// lengths across processes (EvenBatches off) cannot agree batch by batch:
// they stop only at acc.StopRequested().
func (s *shardSampler) StopPass() bool {
	if !tensors.IsGradEnabled() {
		return false
	}
	if s.acc.c.Size() > 1 && !s.spec.even && !s.spec.dropLast {
		return s.acc.stopAgreed
	}
	return s.acc.StopRequested()
}
