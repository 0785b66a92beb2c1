package accelerate

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/backend/sim"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// TestMNISTTrainsThroughTheAcceleratorOnTheSimulatedDevice trains an MLP on MNIST with the
// Accelerator choosing the strict simulated device (GOACCEL_DEVICE=sim): the model and batches
// move there, every op, the optimizer step and the loss read-back cross the device boundary,
// and any host access to device memory would panic. Per step only the batch goes up and only
// the logged loss comes back.
func TestMNISTTrainsThroughTheAcceleratorOnTheSimulatedDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MNIST")
	}
	for _, typ := range []string{"simfused", "sim"} {
		t.Run(typ, func(t *testing.T) {
			t.Setenv(EnvDevice, typ)
			train, err := data.MNIST("train")
			if err != nil {
				t.Fatal(err)
			}
			test, err := data.MNIST("test")
			if err != nil {
				t.Fatal(err)
			}
			acc := newWithComm(withCfg(Config{}), solo{})
			if acc.Device() != (tensors.Device{Type: typ}) {
				t.Fatalf("Device() = %s, want %s:0", acc.Device(), typ)
			}
			tensors.ManualSeed(0)
			var model nn.Module = nn.NewSequential(nn.Flatten{}, nn.NewLinear(784, 128), nn.ReLU{}, nn.NewLinear(128, 10))
			var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 2e-3, WeightDecay: 0.01})
			loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
			acc.Prepare(&model, &opt, &loader)
			dev := sim.Lookup(typ, 0)
			start := time.Now()
			steps := 0
			var before sim.Stats
			for loader.Next() {
				x, y := loader.Batch()
				if x.Device() != acc.Device() || y.Device() != acc.Device() {
					t.Fatalf("batch on %s/%s, want %s", x.Device(), y.Device(), acc.Device())
				}
				if steps == 1 {
					before = dev.Stats()
				}
				loss := tensors.CrossEntropy(model.Forward(x), y)
				acc.Backward(loss)
				opt.Step()
				opt.ZeroGrad()
				if steps%100 == 0 {
					t.Logf("step %d: loss %.4f", steps, loss.Item())
				}
				steps++
			}
			after := dev.Stats()
			t.Logf("%d steps, %.1f ms/step; transfers after the first step: %d uploads, %d downloads",
				steps, float64(time.Since(start).Milliseconds())/float64(steps), after.Uploads-before.Uploads, after.Downloads-before.Downloads)
			if typ == "simfused" {
				// From step 1's forward pass on: the batches of steps 2…n-1 (x, y) up, the loss
				// every 100 steps down, nothing else.
				logs := int64(0)
				for s := 1; s < steps; s++ {
					if s%100 == 0 {
						logs++
					}
				}
				if up, down := after.Uploads-before.Uploads, after.Downloads-before.Downloads; up != 2*int64(steps-2) || down != logs {
					t.Errorf("after the first step: %d uploads, %d downloads; want %d (the batches) and %d (the logged losses)", up, down, 2*(steps-2), logs)
				}
			}
			correct, total := 0, 0
			nn.SetTraining(model, false)
			tl := data.NewLoader(test, data.LoaderConfig{BatchSize: 1000})
			tensors.NoGrad(func() {
				for tl.Next() {
					x, y := tl.Batch()
					pred := model.Forward(x.To(acc.Device())).ArgMax(1, false).Int64s()
					for i, v := range y.Int64s() {
						if pred[i] == v {
							correct++
						}
						total++
					}
				}
			})
			if a := float64(correct) / float64(total); a < 0.95 {
				t.Errorf("test accuracy %.2f%% after one epoch on %s, want ≥ 95%%", 100*a, typ)
			} else {
				t.Logf("test accuracy %.2f%%", 100*a)
			}
		})
	}
}
