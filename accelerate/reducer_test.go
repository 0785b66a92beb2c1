package accelerate

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// twin pretends to be a group of two identical processes: an all-reduce sum doubles.
type twin struct {
	solo
	started chan int // receives the length of every all-reduce as it starts
}

func (twin) Size() int { return 2 }

func (t twin) AllReduce(buf []float32, op string) error {
	t.started <- len(buf)
	for i := range buf {
		buf[i] *= 2
	}
	return nil
}

func TestGradientAllReduceStartsBeforeTheBackwardPassEnds(t *testing.T) {
	c := twin{started: make(chan int, 16)}
	acc := newWithComm(withCfg(Config{}), c)
	tensors.ManualSeed(4)
	l1, l2 := nn.NewLinear(600, 600), nn.NewLinear(600, 600)
	var m nn.Module = nn.NewSequential(l1, l2)
	acc.Prepare(&m)
	if n := len(m.(*model).red.buckets); n != 2 {
		t.Fatalf("got %d buckets; want a small first bucket (1 MB) and a second one", n)
	}
	overlapped := false
	// l1's weight is the last gradient of the pass: by then the first bucket must be on its way.
	h := l1.Weight.OnGradReady(func(*tensors.Tensor) {
		select {
		case <-c.started:
			overlapped = true
		case <-time.After(2 * time.Second):
		}
	})
	defer h.Remove()
	x := tensors.Randn(4, 600)
	acc.Backward(m.Forward(x).Sum())
	if !overlapped {
		t.Error("no all-reduce started before the last gradient was ready")
	}
	// Two identical processes: the average equals the local gradient.
	got := l2.Bias.Grad().Float32s()
	for i, v := range got {
		if v != 4 {
			t.Fatalf("averaged bias gradient[%d] = %v; want 4 (batch of 4, identical twin)", i, v)
		}
	}
}
