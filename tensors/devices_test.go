package tensors

import (
	"os"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend/backendtest"
	_ "github.com/goaccel/goaccel/tensors/backend/sim" // the simulated devices
)

// testDevices are the devices the op suite runs on: the CPU; "sim", a strict simulated device
// with only the required core kernels (so every fused op runs its composed fallback) whose
// memory the host cannot touch; "simfused", the same with every fused kernel; and CUDA when this
// machine has a GPU. GOACCEL_TEST_DEVICES (e.g. "cuda") limits the list to the named types.
var testDevices = func() []Device {
	all := []Device{CPU, {Type: "sim"}, {Type: "simfused"}}
	if DeviceCount("cuda") > 0 {
		all = append(all, CUDA(0))
	}
	want := os.Getenv("GOACCEL_TEST_DEVICES")
	if want == "" {
		return all
	}
	var out []Device
	for _, d := range all {
		for _, w := range strings.Split(want, ",") {
			if strings.TrimSpace(w) == d.Type {
				out = append(out, d)
			}
		}
	}
	return out
}()

// TestRequestedDevicesArePresent fails when GOACCEL_TEST_DEVICES names a device type this machine
// cannot run (tests/gpu/check.sh sets it to cuda), so that the suite never passes on no device.
func TestRequestedDevicesArePresent(t *testing.T) {
	want := os.Getenv("GOACCEL_TEST_DEVICES")
	if want == "" {
		t.Skip("GOACCEL_TEST_DEVICES is not set: the suite runs on every device present")
	}
	for _, w := range strings.Split(want, ",") {
		w = strings.TrimSpace(w)
		found := false
		for _, d := range testDevices {
			found = found || d.Type == w
		}
		if !found {
			t.Errorf("GOACCEL_TEST_DEVICES names %q, but this machine has no usable %s device (DeviceCount %d)", w, w, DeviceCount(w))
		}
	}
}

// TestRequestedDevicesPassTheDeviceSuite runs the device conformance suite on the devices
// GOACCEL_TEST_DEVICES names, as package tensors opens them (by name from the registry, then
// completed): a real GPU in tests/gpu/check.sh. Without it, it leaves them to their own
// packages' tests (the CPU, the simulated devices, the CUDA device on the emulated GPU).
func TestRequestedDevicesPassTheDeviceSuite(t *testing.T) {
	if os.Getenv("GOACCEL_TEST_DEVICES") == "" {
		t.Skip("GOACCEL_TEST_DEVICES is not set: every device runs the suite from its own package")
	}
	for _, d := range testDevices {
		t.Run(d.String(), func(t *testing.T) { backendtest.Run(t, backendFor(d)) })
	}
}
