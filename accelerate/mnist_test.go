package accelerate

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tensors/backend/sim"
)

// mnistRun trains model on MNIST for epochs through acc (prepared model and loader, Backward,
// the optimizer step), or for maxSteps steps when that is not 0, and returns the test accuracy;
// each, when set, is called after every step.
func mnistRun(t *testing.T, acc *Accelerator, model nn.Module, epochs, maxSteps int, lr float64, each func(step int, loss *tensors.Tensor)) float64 {
	t.Helper()
	train, err := data.MNIST("train")
	if err != nil {
		t.Fatal(err)
	}
	test, err := data.MNIST("test")
	if err != nil {
		t.Fatal(err)
	}
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: lr, WeightDecay: 0.01})
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	acc.Prepare(&model, &opt, &loader)
	start := time.Now()
	steps := 0
	for e := 0; e < epochs && (maxSteps == 0 || steps < maxSteps); e++ {
		for (maxSteps == 0 || steps < maxSteps) && loader.Next() {
			x, y := loader.Batch()
			if x.Device() != acc.Device() || y.Device() != acc.Device() {
				t.Fatalf("batch on %s/%s, want %s", x.Device(), y.Device(), acc.Device())
			}
			loss := tensors.CrossEntropy(model.Forward(x), y)
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
			if each != nil {
				each(steps, loss)
			}
			steps++
		}
	}
	t.Logf("%s: %d steps, %.2f ms/step", acc.Device(), steps, float64(time.Since(start).Microseconds())/1000/float64(steps))
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
	a := float64(correct) / float64(total)
	t.Logf("test accuracy %.2f%%", 100*a)
	return a
}

func mlp(hidden ...int) nn.Module {
	layers := []nn.Module{nn.Flatten{}}
	in := 784
	for _, h := range hidden {
		layers = append(layers, nn.NewLinear(in, h), nn.ReLU{})
		in = h
	}
	return nn.NewSequential(append(layers, nn.NewLinear(in, 10))...)
}

// TestMNISTTrainsThroughTheAcceleratorOnTheSimulatedDevice trains an MLP on MNIST with the
// Accelerator choosing the strict simulated device (GOACCEL_DEVICE=sim): the model and batches
// move there, every op, the optimizer step and the loss read-back cross the device boundary,
// and any host access to device memory would panic. On "simfused" (every fused kernel) a step
// moves only the batch up and the logged loss down.
func TestMNISTTrainsThroughTheAcceleratorOnTheSimulatedDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MNIST")
	}
	for _, typ := range []string{"simfused", "sim"} {
		t.Run(typ, func(t *testing.T) {
			t.Setenv(EnvDevice, typ)
			acc := newWithComm(withCfg(Config{}), solo{})
			if acc.Device() != (tensors.Device{Type: typ}) {
				t.Fatalf("Device() = %s, want %s:0", acc.Device(), typ)
			}
			dev := sim.Lookup(typ, 0)
			var before, after sim.Stats
			logs := int64(0)
			tensors.ManualSeed(0)
			a := mnistRun(t, acc, mlp(128), 1, 0, 2e-3, func(step int, loss *tensors.Tensor) {
				if step == 0 {
					before = dev.Stats() // after the first step, before its loss is read
				}
				if step%100 == 0 {
					t.Logf("step %d: loss %.4f", step, loss.Item())
					logs++
				}
				after = dev.Stats()
			})
			steps := int64(469)
			up, down := after.Uploads-before.Uploads, after.Downloads-before.Downloads
			t.Logf("after the first step: %d uploads, %d downloads", up, down)
			// After the first step: the batches of the others (x, y) up and the logged losses
			// down, nothing else.
			if typ == "simfused" && (up != 2*(steps-1) || down != logs) {
				t.Errorf("after the first step: %d uploads, %d downloads; want %d (the batches) and %d (the logged losses)", up, down, 2*(steps-1), logs)
			}
			if a < 0.95 {
				t.Errorf("test accuracy %.2f%% after one epoch on %s, want ≥ 95%%", 100*a, typ)
			}
		})
	}
}

// TestMNISTTrainsThroughTheAcceleratorOnCUDA trains an MLP on MNIST through the Accelerator on
// the GPU it picks by itself (cuda:0): one epoch in float32, and 150 steps under bfloat16 and
// float16 mixed precision (fp16 with the dynamic loss scaler). `make test-cuda-emulated` runs it
// on the emulated GPU, where every op, product and optimizer step is goaccel's kernel code or
// cuBLAS's product, run on the CPU; on a real GPU, tests/gpu/check.sh trains the larger MLP for
// three epochs to 97 % (gpubench -mnist).
func TestMNISTTrainsThroughTheAcceleratorOnCUDA(t *testing.T) {
	if tensors.DeviceCount("cuda") == 0 {
		t.Skip("no GPU on this machine (make test-cuda-emulated runs this test on an emulated one)")
	}
	for _, c := range []struct {
		mp    string
		steps int
		want  float64
	}{{"no", 0, 0.95}, {"bf16", 150, 0.90}, {"fp16", 150, 0.90}} {
		t.Run(c.mp, func(t *testing.T) {
			acc := newWithComm(withCfg(Config{MixedPrecision: c.mp}), solo{})
			if acc.Device() != tensors.CUDA(0) {
				t.Fatalf("Device() = %s, want cuda:0", acc.Device())
			}
			tensors.ManualSeed(0)
			if a := mnistRun(t, acc, mlp(128), 1, c.steps, 2e-3, nil); a < c.want {
				t.Errorf("test accuracy %.2f%% on cuda:0 (%s), want ≥ %.0f%%", 100*a, c.mp, 100*c.want)
			}
		})
	}
}
