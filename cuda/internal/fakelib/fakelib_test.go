package fakelib

import (
	"os"
	"os/exec"
	"testing"
)

// TestTheEmulationChecksWhatCUDARequires runs csrc/emu/emu_test.cc: kernels that use what
// goaccel's own do not (votes, partial masks, shuffle widths, __syncwarp, __trap) and kernels
// that break CUDA's rules, which must fail their launch with a message naming what they did
// (threads at different barriers, a thread that exits under a barrier, a shuffle reading a lane
// outside its mask, lanes that disagree on a mask); atomics and __shared__ memory with blocks on
// four threads; the half-precision conversions against GCC's _Float16.
func TestTheEmulationChecksWhatCUDARequires(t *testing.T) {
	bin, err := emuTest()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "FAKE_CUDA_THREADS=4")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("emu_test: %v", err)
	}
}
