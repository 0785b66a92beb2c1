package discover

import (
	"strings"
	"testing"
)

// TestWithoutAGPUTheReportSaysWhy runs NVML for real: on a machine without a GPU (the driver
// library may be installed without the kernel module) GPUs fails with a reason, twice in a row
// (no NVML call after the failed init), and the process survives.
func TestWithoutAGPUTheReportSaysWhy(t *testing.T) {
	gpus, err := GPUs()
	if err == nil {
		t.Skipf("this machine has %d GPU(s): %s", len(gpus), Report())
	}
	if _, err2 := GPUs(); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("second call: %v, first %v", err2, err)
	}
	if r := Report(); !strings.HasPrefix(r, "none found (") || Count() != 0 {
		t.Fatalf("Report = %q, Count = %d", r, Count())
	}
	t.Log(Report())
}

func TestCUDAVersionsFormatLikeNvidiaSmi(t *testing.T) {
	for in, want := range map[int]string{13000: "13.0", 12040: "12.4", 11080: "11.8"} {
		if got := cudaVersion(in); got != want {
			t.Errorf("cudaVersion(%d) = %s, want %s", in, got, want)
		}
	}
}
