package tensors

import (
	"os"
	"strings"

	_ "github.com/goaccel/goaccel/internal/backend/sim" // the simulated devices
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
