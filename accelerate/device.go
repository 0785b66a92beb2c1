package accelerate

import (
	"fmt"
	"os"
	"strings"

	_ "github.com/goaccel/goaccel/cuda" // registers the "cuda" device type; loads nothing until asked
	"github.com/goaccel/goaccel/cuda/nccl"
	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/tensors"
)

// EnvDevice names the device type an Accelerator trains on ("cpu", "cuda"),
// overriding the automatic choice (a GPU when there is one).
const EnvDevice = "GOACCEL_DEVICE"

// pickDevice chooses where prepared objects live: the CPU when asked to, else
// the device type GOACCEL_DEVICE names, else cuda when a GPU is usable; the
// device index is the local rank, modulo the devices present.
func pickDevice(r resolved, c comm) tensors.Device {
	if r.CPU {
		return tensors.CPU
	}
	typ := strings.ToLower(strings.TrimSpace(os.Getenv(EnvDevice)))
	if typ == "" {
		if tensors.DeviceCount("cuda") == 0 {
			return tensors.CPU
		}
		typ = "cuda"
	}
	if (tensors.Device{Type: typ}).IsCPU() {
		return tensors.CPU
	}
	n := tensors.DeviceCount(typ)
	if n == 0 {
		panic(fmt.Sprintf("accelerate: %s=%s, but no %s device is usable here (no driver, or not in this build); unset it to train on the CPU", EnvDevice, typ, typ))
	}
	d := tensors.Device{Type: typ, Index: c.LocalRank() % n}
	if c.LocalSize() > n && c.LocalRank() == 0 {
		fmt.Fprintf(os.Stderr, "accelerate: %d processes share %d %s device(s) on this machine; several processes use each device\n", c.LocalSize(), n, typ)
	}
	return d
}

// toDevice moves a batch tensor (nil allowed) to d.
func toDevice(t *tensors.Tensor, d tensors.Device) *tensors.Tensor {
	if t == nil {
		return nil
	}
	return t.To(d)
}

// pickBackend chooses the collective backend: "nccl" when the processes
// train on GPUs and each has one of its own and NCCL loads, else "cpu" (which
// moves device tensors through the host), saying why on the launch output.
func pickBackend(r resolved, cfg dist.Config) string {
	if r.CPU {
		return "cpu"
	}
	if typ := strings.ToLower(strings.TrimSpace(os.Getenv(EnvDevice))); typ != "" && typ != "cuda" {
		return "cpu"
	}
	if tensors.DeviceCount("cuda") == 0 {
		return "cpu"
	}
	if err := nccl.Available(cfg.LocalWorldSize); err != nil {
		if cfg.LocalRank == 0 {
			fmt.Fprintf(os.Stderr, "accelerate: the collectives run on the CPU with device↔host copies: %v\n", err)
		}
		return "cpu"
	}
	return "nccl"
}
