package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// stopCounts is what each rank of the stop test did.
type stopCounts struct {
	Trained, Evaluated, LaterEpochs int
	Agreed                          bool
}

// TestGracefulStopIsAgreedByEveryRankAtOneStep asks rank 1 alone to stop
// (as the launcher's stop reaches ranks at different moments) after its
// third training batch: both ranks must end the training pass at the same
// batch, skip later epochs' training and still evaluate in full.
func TestGracefulStopIsAgreedByEveryRankAtOneStep(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		workerinfo.SetStoppable() // a notebook launch's workers have inboxes
		acc := newWithComm(withCfg(Config{}), group())
		var model nn.Module = nn.NewLinear(4, 1)
		var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.01})
		train := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 8})
		eval := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 8})
		acc.Prepare(&model, &opt, &train, &eval)
		var c stopCounts
		for epoch := 0; epoch < 3; epoch++ {
			for train.Next() {
				if epoch > 0 {
					c.LaterEpochs++
				}
				x, y := train.Batch()
				acc.Backward(tensors.MSE(model.Forward(x), y))
				opt.Step()
				opt.ZeroGrad()
				c.Trained++
				if acc.ProcessIndex() == 1 && c.Trained == 3 {
					workerinfo.RequestStop()
				}
			}
		}
		tensors.NoGrad(func() {
			for eval.Next() {
				c.Evaluated++
			}
		})
		c.Agreed = acc.StopRequested()
		writeJSON(filepath.Join(dir, fmt.Sprintf("stop-%d.json", acc.ProcessIndex())), c)
	})
	for rank := range 2 {
		var c stopCounts
		readJSON(t, filepath.Join(dir, fmt.Sprintf("stop-%d.json", rank)), &c)
		// 96 samples, batch 8, 2 ranks: 6 batches each per epoch.
		if c.Trained != 3 || c.LaterEpochs != 0 || c.Evaluated != 6 || !c.Agreed {
			t.Errorf("rank %d: %+v; want 3 batches trained, none in later epochs, 6 evaluated, stop agreed", rank, c)
		}
	}
}

// TestStopRequestedIsFalseOutsideAStoppableLaunch: without an inbox (a
// program under goaccel launch) the check costs no collective and says no.
func TestStopRequestedIsFalseOutsideAStoppableLaunch(t *testing.T) {
	if os.Getenv("RANK") != "" {
		return
	}
	acc := newWithComm(withCfg(Config{}), solo{})
	if acc.StopRequested() {
		t.Fatal("StopRequested without a request")
	}
}
