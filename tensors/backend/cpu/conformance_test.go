package cpu_test

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend/backendtest"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// TestCPUPassesTheDeviceSuite runs the conformance suite of every device on the CPU.
func TestCPUPassesTheDeviceSuite(t *testing.T) { backendtest.Run(t, cpu.New()) }
