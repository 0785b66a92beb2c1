package optim

import (
	_ "github.com/goaccel/goaccel/tensors/backend/sim" // the simulated devices

	"github.com/goaccel/goaccel/tensors"
)

// testDevices are the devices the optimizer tests run on: the CPU, the strict simulated devices
// (core-only and with fused updates), which fail on any host access to their memory, and the
// GPU when there is one.
var testDevices = func() []tensors.Device {
	all := []tensors.Device{tensors.CPU, {Type: "sim"}, {Type: "simfused"}}
	if tensors.DeviceCount("cuda") > 0 {
		all = append(all, tensors.CUDA(0))
	}
	return all
}()
