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

func (t twin) AllReduceCoalesced(bufs [][]float32, op string) error {
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	t.started <- n
	for _, b := range bufs {
		for i := range b {
			if b[i] *= 2; op == "mean" {
				b[i] /= 2
			}
		}
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

func TestBucketWithAMissingGradientIsAveragedThroughItsBuffer(t *testing.T) {
	c := twin{started: make(chan int, 16)}
	acc := newWithComm(withCfg(Config{}), c)
	tensors.ManualSeed(5)
	l1, l2 := nn.NewLinear(8, 8), nn.NewLinear(8, 3)
	var m nn.Module = nn.NewSequential(l1, l2)
	x := tensors.Randn(4, 8)
	m.Forward(x).Sum().Backward()
	local := l1.Weight.Grad().Float32s()
	for _, p := range m.Parameters() {
		p.ZeroGrad()
	}
	acc.Prepare(&m)
	l2.Bias.SetRequiresGrad(false) // gets no gradient: its bucket cannot be reduced in place
	acc.Backward(m.Forward(x).Sum())
	l2.Bias.SetRequiresGrad(true)
	if g := l2.Bias.Grad(); g == nil {
		t.Fatal("a parameter without a local gradient got no averaged gradient; want zeros")
	} else {
		for i, v := range g.Float32s() {
			if v != 0 {
				t.Fatalf("bias without a gradient: averaged gradient[%d] = %v; want 0", i, v)
			}
		}
	}
	// Two identical processes: the average equals the local gradient to the bit.
	for i, v := range l1.Weight.Grad().Float32s() {
		if v != local[i] {
			t.Fatalf("averaged weight gradient[%d] = %v; want the local %v", i, v, local[i])
		}
	}
}
