package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/host"
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

// TestAFinishStopIsAgreedByEveryRankAtOneStepAndSavesFirst asks rank 1 alone to
// finish (as a Stop button's request reaches ranks at different moments)
// after its third training batch: both ranks must end the training pass at
// the same batch (the next stop check, at most about checkInterval of
// training later), skip later epochs' training, still evaluate in full and
// return; with a ProjectDir the state is saved first, the loader's place
// being the batches trained.
func TestAFinishStopIsAgreedByEveryRankAtOneStepAndSavesFirst(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		acc := newWithComm(withCfg(Config{ProjectDir: dir}), group())
		var model nn.Module = nn.NewLinear(4, 1)
		var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.01})
		train := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 2})
		eval := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 2})
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
					host.Current().Worker.RequestStop(workerinfo.StopFinish)
				}
				// At least 10 ms a step: the checks come at most 10 steps apart.
				time.Sleep(10 * time.Millisecond)
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
	var counts [2]stopCounts
	for rank := range 2 {
		c := &counts[rank]
		readJSON(t, filepath.Join(dir, fmt.Sprintf("stop-%d.json", rank)), c)
		// 96 samples, batch 2, 2 ranks: 24 batches each per epoch.
		if c.Trained < 3 || c.Trained > 12 || c.LaterEpochs != 0 || c.Evaluated != 24 || !c.Agreed {
			t.Errorf("rank %d: %+v; want 3 to 12 batches trained, none in later epochs, 24 evaluated, stop agreed", rank, c)
		}
	}
	t.Logf("both ranks trained %d batches", counts[0].Trained)
	if counts[0].Trained != counts[1].Trained {
		t.Fatalf("rank 0 trained %d batches and rank 1 %d: the ranks did not stop at one step", counts[0].Trained, counts[1].Trained)
	}
	var st goaccelState
	readJSON(t, filepath.Join(dir, "checkpoints", "checkpoint_0", "goaccel_state.json"), &st)
	if len(st.LoaderPositions) == 0 || st.LoaderPositions[0] != counts[0].Trained || st.OptimizerSteps != int64(counts[0].Trained) {
		t.Errorf("the finish saved %+v; want the training loader at batch %d after as many optimizer steps", st, counts[0].Trained)
	}
}

// TestStopRequestedWithoutALoaderAgreesAtEachCall: a loop over no prepared
// loader asks StopRequested at each step; rank 1 alone is asked, and both
// ranks leave the loop at the same step, the one rank 1 was asked before.
func TestStopRequestedWithoutALoaderAgreesAtEachCall(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		acc := newWithComm(withCfg(Config{}), group())
		step := 0
		for ; step < 1000 && !acc.StopRequested(); step++ {
			if acc.ProcessIndex() == 1 && step == 7 {
				host.Current().Worker.RequestStop(workerinfo.StopFinish)
			}
		}
		writeJSON(filepath.Join(dir, fmt.Sprintf("steps-%d.json", acc.ProcessIndex())), step)
	})
	for rank := range 2 {
		var step int
		readJSON(t, filepath.Join(dir, fmt.Sprintf("steps-%d.json", rank)), &step)
		if step != 8 {
			t.Errorf("rank %d left the loop after %d steps; want 8", rank, step)
		}
	}
}

// TestStopRequestedIsFalseOutsideAStoppableLaunch: without a launcher's
// control pipe (a program under torchrun or srun alone) the check costs no
// collective and says no.
func TestStopRequestedIsFalseOutsideAStoppableLaunch(t *testing.T) {
	if os.Getenv("RANK") != "" {
		return
	}
	acc := newWithComm(withCfg(Config{}), solo{})
	if acc.StopRequested() {
		t.Fatal("StopRequested without a request")
	}
}
