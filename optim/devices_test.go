package optim

import (
	_ "github.com/goaccel/goaccel/internal/backend/sim" // the simulated devices

	"github.com/goaccel/goaccel/tensors"
)

// testDevices are the devices the optimizer tests run on: the CPU and the strict simulated
// devices (core-only and with fused updates), which fail on any host access to their memory.
var testDevices = []tensors.Device{tensors.CPU, {Type: "sim"}, {Type: "simfused"}}
