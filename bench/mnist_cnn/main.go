package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// Net is mnist/main.py's Net.
type Net struct {
	Conv1, Conv2 *nn.Conv2d
	Dropout1     *nn.Dropout
	Dropout2     *nn.Dropout
	FC1, FC2     *nn.Linear
}

func newNet() *Net {
	return &Net{
		Conv1: nn.NewConv2d(1, 32, 3, 1, 0), Conv2: nn.NewConv2d(32, 64, 3, 1, 0),
		Dropout1: nn.NewDropout(0.25), Dropout2: nn.NewDropout(0.5),
		FC1: nn.NewLinear(9216, 128), FC2: nn.NewLinear(128, 10),
	}
}

// Forward is mnist/main.py's forward, line for line.
func (n *Net) Forward(x *tensors.Tensor) *tensors.Tensor {
	x = n.Conv1.Forward(x)
	x = x.ReLU()
	x = n.Conv2.Forward(x)
	x = x.ReLU()
	x = tensors.MaxPool2d(x, 2, 2)
	x = n.Dropout1.Forward(x)
	x = x.Flatten(1, -1)
	x = n.FC1.Forward(x)
	x = x.ReLU()
	x = n.Dropout2.Forward(x)
	x = n.FC2.Forward(x)
	return x.LogSoftmax(1)
}

func (n *Net) Parameters() []*tensors.Tensor { return nn.ParametersOf(n) }

func (n *Net) NamedParameters() []nn.NamedParameter {
	var ps []nn.NamedParameter
	for _, l := range []struct {
		name string
		m    nn.Module
	}{{"conv1", n.Conv1}, {"conv2", n.Conv2}, {"fc1", n.FC1}, {"fc2", n.FC2}} {
		ps = append(ps, nn.Prefixed(l.name, l.m)...)
	}
	return ps
}

func main() {
	epochs := flag.Int("epochs", 1, "epochs to train")
	maxSteps := flag.Int("steps", 0, "stop each epoch's training after this many steps (0: the whole epoch)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the training loops to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	train, err := data.MNIST("train")
	if err != nil {
		log.Fatal(err)
	}
	test, err := data.MNIST("test")
	if err != nil {
		log.Fatal(err)
	}
	tensors.ManualSeed(1)
	model := newNet()
	opt := optim.NewAdadelta(model.Parameters(), optim.AdadeltaConfig{LR: 1.0})
	sched := optim.NewStepLR(opt, 1, 0.7)
	trainLoader := data.NewLoader(train, data.LoaderConfig{BatchSize: 64})
	testLoader := data.NewLoader(test, data.LoaderConfig{BatchSize: 1000})
	for epoch := 1; epoch <= *epochs; epoch++ {
		nn.SetTraining(model, true)
		t0, steps := time.Now(), 0
		var loss *tensors.Tensor
		for trainLoader.Next() && (*maxSteps == 0 || steps < *maxSteps) {
			x, y := trainLoader.Batch()
			opt.ZeroGrad()
			loss = nn.NLLLoss(model.Forward(x), y)
			loss.Backward()
			opt.Step()
			steps++
		}
		seconds := time.Since(t0).Seconds()
		nn.SetTraining(model, false)
		t1, testLoss, correct := time.Now(), 0.0, 0
		tensors.NoGrad(func() {
			for testLoader.Next() {
				x, y := testLoader.Batch()
				out := model.Forward(x)
				testLoss += nn.NLLLossSum(out, y).Item()
				pred, labels := out.ArgMax(1, false).Int64s(), y.Int64s()
				for i := range pred {
					if pred[i] == labels[i] {
						correct++
					}
				}
			}
		})
		sched.Step()
		fmt.Printf("goaccel epoch=%d procs=%d seconds=%.2f steps=%d loss=%.4f test_loss=%.4f accuracy=%.2f eval_seconds=%.2f\n",
			epoch, runtime.GOMAXPROCS(0), seconds, steps, loss.Item(), testLoss/float64(test.Len()), 100*float64(correct)/float64(test.Len()), time.Since(t1).Seconds())
	}
}
