package sim_test

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend/backendtest"
	"github.com/goaccel/goaccel/tensors/backend/sim"
)

// TestSimulatedDevicesPassTheDeviceSuite runs the conformance suite on both simulated devices:
// the one with only the core kernels (every fused op composed by backend.Complete, over memory
// the host cannot touch) and the one with every fused op.
func TestSimulatedDevicesPassTheDeviceSuite(t *testing.T) {
	t.Run("core", func(t *testing.T) { backendtest.Run(t, sim.New("suite"), backendtest.Strict()) })
	t.Run("fused", func(t *testing.T) { backendtest.Run(t, sim.NewFused("suite-fused"), backendtest.Strict()) })
}
