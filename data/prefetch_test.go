package data

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goaccel/goaccel/tensors"
)

// waitFor polls cond until it holds or a generous deadline passes (the machine may be loaded;
// nothing here measures speed).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
}

// countingDataset is seqDataset that counts Get calls and can panic at one index.
type countingDataset struct {
	seqDataset
	gets    atomic.Int64
	panicAt int
	err     error // panic value at panicAt: this error, or a string when nil
}

func (d *countingDataset) Get(i int) (x, y *tensors.Tensor) {
	d.gets.Add(1)
	if i == d.panicAt {
		if d.err != nil {
			panic(d.err)
		}
		panic(fmt.Sprintf("bad sample %d", i))
	}
	return d.seqDataset.Get(i)
}

func TestPrefetchKeepsTheOrderOfBatches(t *testing.T) {
	for _, c := range []struct {
		name     string
		ds       Dataset
		shuffle  bool
		dropLast bool
		skip     int
	}{
		{"tensor dataset", rangeDataset(53), false, false, 0},
		{"tensor dataset shuffled", rangeDataset(53), true, false, 0},
		{"Get path shuffled drop last", seqDataset{n: 53}, true, true, 0},
		{"skip batches", rangeDataset(53), true, false, 3},
		{"skip past the end", rangeDataset(53), true, false, 99},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(prefetch int) [][][]int64 {
				l := NewLoader(c.ds, LoaderConfig{BatchSize: 5, Shuffle: c.shuffle, DropLast: c.dropLast, Seed: 9, Prefetch: prefetch})
				var epochs [][][]int64
				for e := 0; e < 3; e++ {
					if e == 1 {
						l.SkipBatches(c.skip)
					}
					epochs = append(epochs, epochLabels(t, l))
				}
				return epochs
			}
			want := fmt.Sprint(run(NoPrefetch))
			for _, p := range []int{0, 1, 2, 7} {
				if got := fmt.Sprint(run(p)); got != want {
					t.Errorf("Prefetch %d: batches %s; without prefetching %s", p, got, want)
				}
			}
		})
	}
}

func TestPrefetchPreparesBatchesAheadWithinItsBound(t *testing.T) {
	for _, depth := range []int{1, 2, 4} {
		t.Run(fmt.Sprint("prefetch", depth), func(t *testing.T) {
			ds := &countingDataset{seqDataset: seqDataset{n: 100}, panicAt: -1}
			l := NewLoader(ds, LoaderConfig{BatchSize: 2, Prefetch: depth})
			defer l.Reset()
			l.Next() // batch 1 is in hand
			// Batches 2 … 1+depth are prepared while the caller works on batch 1, and no more.
			waitFor(t, "batches to be prepared ahead", func() bool { return ds.gets.Load() >= int64(2*(1+depth)) })
			time.Sleep(20 * time.Millisecond)
			if got := ds.gets.Load(); got != int64(2*(1+depth)) {
				t.Fatalf("%d samples read with batch 1 in hand; Prefetch %d allows %d", got, depth, 2*(1+depth))
			}
		})
	}
	ds := &countingDataset{seqDataset: seqDataset{n: 100}, panicAt: -1}
	l := NewLoader(ds, LoaderConfig{BatchSize: 2, Prefetch: NoPrefetch})
	l.Next()
	time.Sleep(20 * time.Millisecond)
	if got := ds.gets.Load(); got != 2 {
		t.Errorf("NoPrefetch: %d samples read for one batch", got)
	}
}

func TestBreakingOutOfALoopAndResettingLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	l := NewLoader(rangeDataset(100), LoaderConfig{BatchSize: 4})
	for i := 0; l.Next(); i++ {
		if i == 2 {
			break
		}
	}
	if runtime.NumGoroutine() <= base {
		t.Fatal("no prefetch goroutine while a pass is in progress")
	}
	l.Reset()
	waitFor(t, "the prefetch goroutine to end after Reset", func() bool { return runtime.NumGoroutine() <= base })
	// SetEpoch and SetSampler abandon a pass too; a finished pass leaves nothing behind.
	l.Next()
	l.SetEpoch(5)
	waitFor(t, "the prefetch goroutine to end after SetEpoch", func() bool { return runtime.NumGoroutine() <= base })
	for l.Next() {
	}
	waitFor(t, "the prefetch goroutine to end with its pass", func() bool { return runtime.NumGoroutine() <= base })
}

func TestAnAbandonedLoaderStopsItsGoroutineWhenCollected(t *testing.T) {
	base := runtime.NumGoroutine()
	func() {
		l := NewLoader(rangeDataset(100), LoaderConfig{BatchSize: 4, Prefetch: 3})
		l.Next() // then dropped mid-pass, never Reset
	}()
	waitFor(t, "the dropped Loader's goroutine to end", func() bool { return runtime.NumGoroutine() <= base })
}

func TestAPanicWhilePrefetchingSurfacesInNext(t *testing.T) {
	sentinel := errors.New("corrupt record")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"string", nil, "bad sample 9"},
		{"error", sentinel, "corrupt record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := runtime.NumGoroutine()
			ds := &countingDataset{seqDataset: seqDataset{n: 20}, panicAt: 9, err: c.err}
			l := NewLoader(ds, LoaderConfig{BatchSize: 4})
			var got any
			var batches int
			for {
				ok := func() (ok bool) {
					defer func() {
						if r := recover(); r != nil {
							got = r
							ok = true
						}
					}()
					ok = l.Next()
					if ok {
						batches++
					}
					return ok
				}()
				if !ok {
					break
				}
			}
			msg := fmt.Sprint(got)
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "batch 2") {
				t.Errorf("Next panicked with %q; want the dataset's panic %q and the batch", msg, c.want)
			}
			if err, ok := got.(error); c.err != nil && (!ok || !errors.Is(err, sentinel)) {
				t.Errorf("the panic value %v does not wrap the dataset's error", got)
			}
			if batches != 4 {
				t.Errorf("%d batches after the failing one; want the pass to go on with the other 4", batches)
			}
			waitFor(t, "no goroutine left", func() bool { return runtime.NumGoroutine() <= base })
		})
	}
}

func TestWithTransformAppliesToEverySample(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	ds := WithTransform(seqDataset{n: 10}, func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
		mu.Lock()
		seen[int(y.Int64s()[0])] = true
		mu.Unlock()
		return x.MulScalar(-1), y
	})
	l := NewLoader(ds, LoaderConfig{BatchSize: 3})
	for l.Next() {
		x, y := l.Batch()
		xs, ys := x.Float32s(), y.Int64s()
		for k, v := range ys {
			if xs[2*k] != -float32(v) {
				t.Fatalf("sample %d: x %v not transformed", v, xs[2*k])
			}
		}
	}
	if len(seen) != 10 {
		t.Errorf("transform ran on %d samples, want 10", len(seen))
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "nil input for sample 3") {
			t.Errorf("a transform returning nil: panic %v", r)
		}
	}()
	WithTransform(seqDataset{n: 10}, func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) { return nil, y }).Get(3)
}
