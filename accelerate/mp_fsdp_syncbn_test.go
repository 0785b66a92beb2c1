package accelerate

import (
	"sync"
	"testing"
	"time"
)

// TestFSDPPrefetchOrdersSyncBatchNormSums trains an MLP with a SyncBatchNorm, cut into units by
// size, with forward prefetch and BACKWARD_PRE on 2 processes: the batch norm's sums, issued
// while a unit's all-gather or a reduce-scatter may be under way, go through the sharder's
// queue of collectives (TestFSDPCollectivesRunInTheOrderStarted), and the training ends with
// DDP's parameters and running statistics to the bit. (Sums issued beside the queue mismatch
// only when another process's goroutine is late; this run did not catch that.)
func TestFSDPPrefetchOrdersSyncBatchNormSums(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		var runs [][]float32
		for _, p := range []*FullyShardedDataParallelPlugin{nil,
			{AutoWrapPolicy: SizeBasedWrap, MinNumParams: 40, ForwardPrefetch: true, BackwardPrefetch: BackwardPre}} {
			acc := newWithComm(withCfg(Config{FSDP: p}), c)
			out, _ := train(acc, runCfg{BN: true, Batch: 8, Epochs: 2})
			runs = append(runs, out)
			acc.FreeMemory()
		}
		writeJSON(resultPath(dir, "syncbn"+string(rune('0'+c.Rank()))), runs)
	})
	var runs [][]float32
	readJSON(t, resultPath(dir, "syncbn0"), &runs)
	ddp, fsdp := runs[0], runs[1]
	if len(ddp) != len(fsdp) {
		t.Fatalf("DDP ends with %d values, FSDP with %d", len(ddp), len(fsdp))
	}
	for i := range ddp {
		if ddp[i] != fsdp[i] {
			t.Fatalf("value %d: FSDP with prefetch ends at %g, DDP at %g", i, fsdp[i], ddp[i])
		}
	}
}

// TestFSDPCollectivesRunInTheOrderStarted starts a collective that blocks, then runs another
// through the sharder's queue: the second runs only once the first has.
func TestFSDPCollectivesRunInTheOrderStarted(t *testing.T) {
	s := &sharder{c: solo{}}
	var mu sync.Mutex
	var order []string
	note := func(what string) {
		mu.Lock()
		order = append(order, what)
		mu.Unlock()
	}
	release := make(chan struct{})
	s.start("first", func() error { <-release; note("first"); return nil })
	done := make(chan error)
	go func() { done <- s.collective(func() error { note("second"); return nil }) }()
	select {
	case <-done:
		t.Fatal("the second collective ran before the first, still blocked, had run")
	case <-time.After(50 * time.Millisecond): // a chance to run too early, never a false failure
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s.settle()
	if len(order) != 2 || order[0] != "first" || order[1] != "second" {
		t.Errorf("collectives ran in the order %v; want [first second]", order)
	}
}
