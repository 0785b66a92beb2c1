package accelerate

import (
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
)

// encodingSink stands in for the kernel's display sink: it encodes every
// message as JSON, as the executor does before sending it to the kernel.
type encodingSink struct{ enc *json.Encoder }

func (s encodingSink) Send(msgType string, content map[string]any) {
	_ = s.enc.Encode(map[string]any{"msg_type": msgType, "content": content})
}

// trainMNISTEpoch trains notebooks/mnist.ipynb's MLP (784-256-10, AdamW,
// batch 128) for one epoch, logging the loss at every step. It returns the
// wall time and the part of it spent in the trackers (Log, and the final
// redraw in EndTraining).
func trainMNISTEpoch(b *testing.B, train data.Dataset, logWith []string) (total, tracking time.Duration) {
	SetSeed(0, false)
	acc := newWithComm(withCfg(Config{LogWith: logWith}), solo{})
	var model nn.Module = nn.NewSequential(nn.Flatten{}, nn.NewLinear(784, 256), nn.ReLU{}, nn.NewLinear(256, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	acc.Prepare(&model, &opt, &loader)
	start := time.Now()
	if err := acc.InitTrackers("mnist-mlp", nil); err != nil {
		b.Fatal(err)
	}
	step := 0
	for loader.Next() {
		xb, yb := loader.Batch()
		loss := nn.CrossEntropy(model.Forward(xb), yb)
		acc.Backward(loss)
		opt.Step()
		opt.ZeroGrad()
		l := loss.Item()
		t0 := time.Now()
		acc.Log(map[string]float64{"loss": l}, step)
		tracking += time.Since(t0)
		step++
	}
	t0 := time.Now()
	acc.EndTraining() // the notebook tracker's final redraw
	tracking += time.Since(t0)
	return time.Since(start), tracking
}

// BenchmarkNotebookTrackerOverhead measures what the live loss plot (the
// "notebook" tracker, logging every step, under a sink that encodes each
// image as the kernel does) costs in an epoch of MNIST MLP training:
// tracker-% is the time spent in the tracker over the epoch's time (the
// design bound is 2 %); ab-% compares whole epochs with and without the
// tracker in the same run (alternating order), which machine load makes
// noisier.
func BenchmarkNotebookTrackerOverhead(b *testing.B) {
	train, err := data.MNIST("train")
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	host.ForTest(b, host.Host{Display: encodingSink{json.NewEncoder(io.Discard)}})
	trainMNISTEpoch(b, train, nil) // warm-up: caches, pools, page faults
	var plain, live, tracking time.Duration
	runLive := func() {
		t, tr := trainMNISTEpoch(b, train, []string{"notebook"})
		live, tracking = live+t, tracking+tr
	}
	runPlain := func() {
		t, _ := trainMNISTEpoch(b, train, nil)
		plain += t
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			runPlain()
			runLive()
		} else {
			runLive()
			runPlain()
		}
	}
	b.ReportMetric(float64(plain.Milliseconds())/float64(b.N), "plain-ms/epoch")
	b.ReportMetric(float64(live.Milliseconds())/float64(b.N), "live-ms/epoch")
	b.ReportMetric(100*float64(tracking)/float64(live), "tracker-%")
	b.ReportMetric(100*(float64(live)-float64(plain))/float64(plain), "ab-%")
}
