package accelerate

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// FreeMemory drops the Accelerator's references to everything Prepare returned (models,
// optimizers, schedulers, loaders), takes the prepared models' gradient all-reduce hooks off
// their parameters, sets the step count back to 0 and runs the garbage collector, so that the
// tensors' memory goes back to its device once the caller's own variables let go of them too
// (Accelerate's free_memory, also named clear). Call it between two trainings with different
// models; then set the variables that held the prepared objects to nil, as Accelerate's
// `model, optimizer = accelerator.free_memory(model, optimizer)` sets them to None. Trackers,
// objects registered for checkpointing and the process group stay.
func (a *Accelerator) FreeMemory() {
	for _, m := range a.models {
		if m.red != nil {
			m.red.detach()
			nn.SetSyncGroup(m.inner, nil)
		}
	}
	a.models, a.optimizers, a.schedulers = nil, nil, nil
	a.samplers, a.running = nil, nil
	a.step, a.syncGradients = 0, true
	clearDeviceCache()
}

// Clear is FreeMemory (Accelerate's alias).
func (a *Accelerator) Clear() { a.FreeMemory() }

// detach removes the reducer's gradient-ready hooks from its parameters.
func (r *reducer) detach() {
	for _, h := range r.hooks {
		h.Remove()
	}
	r.hooks = nil
}

// clearDeviceCache collects garbage so that unreachable tensors' buffers go back to their
// devices (Accelerate's clear_device_cache(garbage_collection=True)); the CUDA allocator
// returns its cached blocks to the driver itself before it reports running out of memory.
func clearDeviceCache() {
	runtime.GC()
	runtime.GC() // the first collection queues the buffers' cleanups; the second sees them run
}

// ErrNoExecutableBatchSize is FindExecutableBatchSize's error when even a batch of one ran out
// of memory.
var ErrNoExecutableBatchSize = errors.New("accelerate: no executable batch size found, reached zero")

// FindExecutableBatchSize calls fn with batch size start and, each time fn runs out of device
// memory, again with a smaller one (int(batchSize × 0.9), Accelerate's default back-off
// since 1.10; FindExecutableBatchSizeWith takes another), collecting garbage before each try,
// as Accelerate's find_executable_batch_size. It returns the batch size of the call that
// finished and that call's error.
//
// Running out of memory is a panic or an error of fn that wraps tensors.ErrOutOfMemory: what a
// GPU's allocator raises when the device is full even after it returned its cache and the
// garbage collector ran. Any other panic or error ends the search at once and goes to the
// caller. On the CPU, Go's runtime ends the process when the machine's memory runs out (a
// fatal error, not a panic), so there is nothing to retry: the search helps on GPUs. Under
// several processes, every process must run out at the same batch size (the same model and
// batch shape on alike GPUs), or the ones that did not wait in a collective for the others.
func FindExecutableBatchSize(start int, fn func(batchSize int) error) (int, error) {
	return FindExecutableBatchSizeWith(start, nil, fn)
}

// FindExecutableBatchSizeWith is FindExecutableBatchSize with the next batch size after an
// out-of-memory given by reduce (Accelerate's reduce_batch_size_fn; nil: × 0.9), e.g.
// func(bs int) int { return bs / 2 } to halve, as Accelerate did before 1.10.
func FindExecutableBatchSizeWith(start int, reduce func(batchSize int) int, fn func(batchSize int) error) (int, error) {
	if start < 1 {
		return 0, fmt.Errorf("accelerate: FindExecutableBatchSize: the starting batch size is %d; give a positive one", start)
	}
	if reduce == nil {
		reduce = func(bs int) int { return int(float64(bs) * 0.9) }
	}
	bs := start
	for {
		clearDeviceCache()
		err := tryBatchSize(fn, bs)
		if !errors.Is(err, tensors.ErrOutOfMemory) {
			return bs, err
		}
		next := reduce(bs)
		if next >= bs {
			return bs, fmt.Errorf("accelerate: FindExecutableBatchSize: reduce(%d) = %d does not shrink the batch: %w", bs, next, err)
		}
		if next < 1 {
			return 0, fmt.Errorf("%w (the last try, batch size %d: %w)", ErrNoExecutableBatchSize, bs, err)
		}
		bs = next
	}
}

// tryBatchSize runs fn(bs), turning an out-of-memory panic into its error; other panics go on.
func tryBatchSize(fn func(int) error, bs int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			v := r
			if rv, ok := r.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
				v = rv.Interface() // a notebook cell's panic reaches compiled code as a reflect.Value
			}
			if e, ok := v.(error); ok && errors.Is(e, tensors.ErrOutOfMemory) {
				err = e
				return
			}
			panic(r)
		}
	}()
	return fn(bs)
}
