package nn_test

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// accuracy returns the share of test samples m classifies correctly (eval mode, no autograd).
func accuracy(m nn.Module, ds *data.TensorDataset) float64 {
	nn.SetTraining(m, false)
	defer nn.SetTraining(m, true)
	l := data.NewLoader(ds, data.LoaderConfig{BatchSize: 1000})
	correct, total := 0, 0
	tensors.NoGrad(func() {
		for l.Next() {
			x, y := l.Batch()
			pred := m.Forward(x).ArgMax(1, false).Int64s()
			for i, v := range y.Int64s() {
				if pred[i] == v {
					correct++
				}
				total++
			}
		}
	})
	return float64(correct) / float64(total)
}

// trainMNIST trains m for epochs with AdamW and a linear decay, logging the mean step time.
func trainMNIST(t *testing.T, m nn.Module, epochs, batch int, lr float64) float64 {
	t.Helper()
	train, err := data.MNIST("train")
	if err != nil {
		t.Fatal(err)
	}
	test, err := data.MNIST("test")
	if err != nil {
		t.Fatal(err)
	}
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: batch, Shuffle: true, Seed: 1})
	opt := optim.NewAdamW(m.Parameters(), optim.AdamConfig{LR: lr, WeightDecay: 0.01})
	sched := optim.NewLinearScheduleWithWarmup(opt, 100, epochs*loader.Len())
	start := time.Now()
	steps := 0
	for epoch := 0; epoch < epochs; epoch++ {
		var sum float64
		n := 0
		for loader.Next() {
			x, y := loader.Batch()
			loss := nn.CrossEntropy(m.Forward(x), y)
			loss.Backward()
			opt.Step()
			sched.Step()
			opt.ZeroGrad()
			sum += loss.Item()
			n++
			steps++
		}
		acc := accuracy(m, test)
		t.Logf("epoch %d: mean loss %.4f, test accuracy %.2f%%, %.2f ms/step", epoch+1, sum/float64(n), 100*acc,
			float64(time.Since(start).Microseconds())/1000/float64(steps))
	}
	return accuracy(m, test)
}

func TestMLPReachesMNISTAccuracyIn3Epochs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for 3 epochs; run without -short")
	}
	tensors.ManualSeed(0)
	m := nn.NewSequential(nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	flat := nn.NewSequential(nn.Flatten{}, m)
	if acc := trainMNIST(t, flat, 3, 128, 1e-3); acc < 0.975 {
		t.Errorf("MLP test accuracy %.2f%% after 3 epochs, want ≥ 97.5%%", 100*acc)
	}
}

func TestCNNReachesMNISTAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a CNN; run without -short")
	}
	tensors.ManualSeed(0)
	m := nn.NewSequential(
		nn.NewConv2d(1, 8, 3, 1, 1), nn.ReLU{}, nn.NewMaxPool2d(2),
		nn.NewConv2d(8, 16, 3, 1, 1), nn.ReLU{}, nn.NewMaxPool2d(2),
		nn.Flatten{}, nn.NewLinear(16*7*7, 64), nn.ReLU{}, nn.NewLinear(64, 10))
	if acc := trainMNIST(t, m, 3, 64, 2e-3); acc < 0.985 {
		t.Errorf("CNN test accuracy %.2f%%, want ≥ 98.5%%", 100*acc)
	}
}
