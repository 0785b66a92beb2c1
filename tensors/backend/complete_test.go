package backend_test

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/backendtest"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// coreOnly hides the CPU's fused ops, so Complete composes them from Core on host memory.
type coreOnly struct{ backend.Core }

// TestCompleteWrapsOnlyWhatItMust: a device with every fused op is its own Backend; a host core
// gets the composed ops and no Transfer.
func TestCompleteWrapsOnlyWhatItMust(t *testing.T) {
	c := cpu.New()
	if backend.Complete(c) != backend.Backend(c) {
		t.Fatal("Complete wrapped a backend that has every op")
	}
	if _, ok := backend.Complete(coreOnly{c}).(backend.Transfer); ok {
		t.Fatal("a host core gained Transfer")
	}
}

// TestComposedOpsOnHostMemoryPassTheDeviceSuite runs the conformance suite on the fused ops
// Complete composes from the CPU's core kernels (the simulated device runs them over memory the
// host cannot touch).
func TestComposedOpsOnHostMemoryPassTheDeviceSuite(t *testing.T) {
	backendtest.Run(t, coreOnly{cpu.New()})
}
