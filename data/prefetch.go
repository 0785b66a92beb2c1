package data

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/tensors"
)

// DefaultPrefetch is how many batches a Loader prepares ahead when LoaderConfig.Prefetch is 0.
const DefaultPrefetch = 2

// NoPrefetch, as LoaderConfig.Prefetch, makes Next prepare each batch itself, on the caller's
// goroutine.
const NoPrefetch = -1

// prefetcher prepares the batches of one pass on its own goroutine, in order, at most depth
// batches ahead of Next, so that collating and per-sample transforms overlap the training step.
// It never refers to its Loader, so an abandoned Loader can be collected (and its prefetcher
// stopped by the cleanup NewLoader registers).
type prefetcher struct {
	out  chan prepared
	stop chan struct{}
	done chan struct{} // closed when the goroutine has returned
	once sync.Once
}

// prepared is one collated batch, (x, y) or named, or the panic that collating it raised.
type prepared struct {
	x, y     *tensors.Tensor
	named    *Batch
	panicked any
}

func startPrefetch(ds Dataset, batches [][]int, depth int) *prefetcher {
	p := &prefetcher{out: make(chan prepared, depth-1), stop: make(chan struct{}), done: make(chan struct{})}
	go p.run(ds, batches)
	return p
}

func (p *prefetcher) run(ds Dataset, batches [][]int) {
	defer close(p.done)
	for _, indices := range batches {
		select {
		case <-p.stop:
			return
		default:
		}
		b := collateRecovering(ds, indices)
		select {
		case p.out <- b:
		case <-p.stop:
			return
		}
		if b.panicked != nil {
			return
		}
	}
}

// collateRecovering collates one batch, turning a panic (in the dataset's Get or GetBatch) into a
// value that Next re-raises on its caller's goroutine: a panic must not end the process from a
// goroutine the user never started.
func collateRecovering(ds Dataset, indices []int) (b prepared) {
	defer func() {
		if r := recover(); r != nil {
			b = prepared{panicked: r}
		}
	}()
	return collate(ds, indices, true)
}

// next returns the next batch; it re-raises a panic of the prefetch goroutine, with the batch's
// position in the pass.
func (p *prefetcher) next(pos int) prepared {
	b := <-p.out
	if b.panicked != nil {
		if err, ok := b.panicked.(error); ok {
			panic(fmt.Errorf("data: Loader: preparing batch %d (on the prefetch goroutine): %w", pos, err))
		}
		panic(fmt.Sprintf("data: Loader: preparing batch %d (on the prefetch goroutine): %v", pos, b.panicked))
	}
	return b
}

// close stops the goroutine and waits until it has returned (it finishes the batch it is
// collating, if any), so that the dataset is not read after close returns. It is idempotent.
func (p *prefetcher) close() {
	p.once.Do(func() { close(p.stop) })
	<-p.done
}

// prefetchSlot holds a Loader's running prefetcher. The cleanup registered by NewLoader reaches the
// prefetcher through it, never through the Loader: a Loader dropped in the middle of a pass (a loop
// that broke out and was never Reset) stops its goroutine when it is collected.
type prefetchSlot struct {
	mu sync.Mutex
	p  *prefetcher
}

func (s *prefetchSlot) set(p *prefetcher) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.p = p
}

// stop closes the running prefetcher, if any.
func (s *prefetchSlot) stop() {
	s.mu.Lock()
	p := s.p
	s.p = nil
	s.mu.Unlock()
	if p != nil {
		p.close()
	}
}
