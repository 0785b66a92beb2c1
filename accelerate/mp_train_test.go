package accelerate

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

type trainResult struct {
	Params []float32
	Sched  int
}

// runCases trains every case on n processes and compares each with one
// process whose batch is n times larger (Accelerate's test_script training check).
func runCases(t *testing.T, n int, cases []runCfg) {
	dir := sharedDir(t)
	launch(t, n, func() {
		c := group()
		if os.Getenv(EnvDevice) == "cuda" {
			if dc, ok := c.(distComm); !ok || dc.g.Transport() != "nccl" {
				panic(fmt.Sprintf("rank %d: the gradients are all-reduced by %T, not by NCCL on the GPUs", c.Rank(), c))
			}
		}
		for _, rc := range cases {
			acc := newWithComm(withCfg(Config{SplitBatches: rc.Split, GradientAccumulationSteps: rc.GA, DDP: DistributedDataParallelKwargs{BucketCapMB: rc.Bucket}}), c)
			if want := os.Getenv(EnvDevice); want != "" && acc.Device() != (tensors.Device{Type: want, Index: c.LocalRank()}) {
				panic(fmt.Sprintf("rank %d trains on %s, want %s:%d", c.Rank(), acc.Device(), want, c.LocalRank()))
			}
			params, steps := train(acc, rc)
			if c.Rank() == 0 {
				writeJSON(resultPath(dir, rc.Name), trainResult{params, steps})
			}
		}
	})
	for _, rc := range cases {
		t.Run(rc.Name, func(t *testing.T) {
			var got trainResult
			readJSON(t, resultPath(dir, rc.Name), &got)
			ref := rc
			if !rc.Split {
				ref.Batch = rc.Batch * n
			}
			want, wantSteps := train(newWithComm(withCfg(Config{GradientAccumulationSteps: rc.GA, CPU: true}), solo{}), ref)
			for i := range want {
				if d := math.Abs(float64(got.Params[i] - want[i])); d > 1e-5 {
					t.Errorf("parameter %d: %d processes %v, one process %v (|Δ| %.2g > 1e-5)", i, n, got.Params[i], want[i], d)
				}
			}
			// n processes step the scheduler n times per sync step (once with split
			// batches), so a schedule written for one process with the per-process
			// batch ends at the same point.
			if !rc.Split {
				wantSteps *= n
			}
			if got.Sched != wantSteps {
				t.Errorf("scheduler steps: %d processes %d, one process %d", n, got.Sched, wantSteps)
			}
		})
	}
}

func TestTrainingOnTwoProcessesMatchesOneProcessWithDoubleBatch(t *testing.T) {
	runCases(t, 2, []runCfg{
		{Name: "plain", Batch: 8, Epochs: 2},
		{Name: "shuffled", Batch: 8, Shuffle: true, Epochs: 2},
		{Name: "split", Batch: 16, Split: true, Shuffle: true, Epochs: 2},
		{Name: "accumulate2", Batch: 8, GA: 2, Shuffle: true, Epochs: 2},
		{Name: "mlp-adamw", Batch: 8, GA: 2, Shuffle: true, Epochs: 3, MLP: true},
		{Name: "mlp-one-parameter-per-bucket", Batch: 8, Shuffle: true, Epochs: 2, MLP: true, Bucket: 1e-5},
		{Name: "sync-batchnorm", Batch: 8, Shuffle: true, Epochs: 2, BN: true},
		{Name: "sync-batchnorm-accumulate2", Batch: 8, GA: 2, Shuffle: true, Epochs: 2, BN: true, Bucket: 1e-4},
	})
}

// TestTrainingOnTwoSimulatedDevicesMatchesOneCPUProcess runs data-parallel training with each
// process on its own strict simulated device (GOACCEL_DEVICE=sim): models and batches live on
// the devices, the bucketed gradient all-reduce moves the device buckets through the host, and
// the result equals one CPU process with the double batch.
func TestTrainingOnTwoSimulatedDevicesMatchesOneCPUProcess(t *testing.T) {
	t.Setenv(EnvDevice, "sim")
	runCases(t, 2, []runCfg{
		{Name: "sim-shuffled", Batch: 8, Shuffle: true, Epochs: 2},
		{Name: "sim-accumulate2", Batch: 8, GA: 2, Shuffle: true, Epochs: 2},
		{Name: "sim-mlp-adamw", Batch: 8, GA: 2, Shuffle: true, Epochs: 3, MLP: true},
		{Name: "sim-sync-batchnorm", Batch: 8, Shuffle: true, Epochs: 2, BN: true},
	})
}

// TestTrainingOnTwoGPUsOverNCCLMatchesOneCPUProcess runs data-parallel training with each
// process on a GPU of its own (cuda:0 and cuda:1: the emulated ones under `make
// test-cuda-emulated`): models and batches live on the GPUs, NCCL all-reduces the gradient
// buckets on a stream of their own while the backward pass goes on, and the result equals one
// CPU process with the double batch.
func TestTrainingOnTwoGPUsOverNCCLMatchesOneCPUProcess(t *testing.T) {
	if n := tensors.DeviceCount("cuda"); n < 2 {
		t.Skipf("needs two GPUs, this machine has %d (make test-cuda-emulated runs it on two emulated ones)", n)
	}
	t.Setenv(EnvDevice, "cuda")
	runCases(t, 2, []runCfg{
		{Name: "cuda-shuffled", Batch: 8, Shuffle: true, Epochs: 2},
		{Name: "cuda-accumulate2", Batch: 8, GA: 2, Shuffle: true, Epochs: 2},
		{Name: "cuda-mlp-adamw", Batch: 8, GA: 2, Shuffle: true, Epochs: 3, MLP: true},
		{Name: "cuda-mlp-one-parameter-per-bucket", Batch: 8, Shuffle: true, Epochs: 2, MLP: true, Bucket: 1e-5},
	})
}

func TestTrainingOnThreeProcessesMatchesOneProcessWithTripleBatch(t *testing.T) {
	runCases(t, 3, []runCfg{
		{Name: "shuffled", Batch: 8, Shuffle: true, Epochs: 2},
		{Name: "accumulate2", Batch: 8, GA: 2, Epochs: 1},
		{Name: "split", Batch: 24, Split: true, Epochs: 1},
	})
}

func TestSchedulerStepsOnlyOnSyncStepsTimesProcesses(t *testing.T) {
	dir := sharedDir(t)
	cases := []struct {
		name  string
		batch int
		ga    int
		split bool
		want  int
	}{
		// 96 samples, 2 processes: 6 batches of 8 per process.
		{"no accumulation", 8, 1, false, 6 * 2},
		{"accumulate 2", 8, 2, false, 3 * 2},
		{"accumulate 2, split", 16, 2, true, 3},
	}
	launch(t, 2, func() {
		c := group()
		var steps []int
		for _, tc := range cases {
			acc := newWithComm(withCfg(Config{GradientAccumulationSteps: tc.ga, SplitBatches: tc.split}), c)
			_, s := train(acc, runCfg{Batch: tc.batch, Epochs: 1})
			steps = append(steps, s)
		}
		writeJSON(resultPath(dir, fmt.Sprint("steps", c.Rank())), steps)
	})
	for r := 0; r < 2; r++ {
		var steps []int
		readJSON(t, resultPath(dir, fmt.Sprint("steps", r)), &steps)
		for i, tc := range cases {
			if steps[i] != tc.want {
				t.Errorf("rank %d, %s: scheduler stepped %d times; want %d", r, tc.name, steps[i], tc.want)
			}
		}
	}
}
