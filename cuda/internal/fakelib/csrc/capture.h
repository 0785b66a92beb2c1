// Captured launches: with FAKE_CUDA_CAPTURE set to a folder, the first launches of each kernel
// are written there with the memory their pointer parameters point into, as the kernel found
// it. The replay tool (replay.cc, built with ThreadSanitizer by `make test-cuda-tsan`) runs them
// again, so every kernel the emulated suite launched is checked for data races without the Go
// program around it.
#pragma once

#include <string>
#include <vector>

#include "emu/kernel.h"
#include "fake.h"

namespace fake {

// capture writes l (with blocks, the allocations its pointer parameters point into) when
// FAKE_CUDA_CAPTURE is set and the kernel has been captured fewer than kCaptures times.
constexpr int kCaptures = 2;
void capture(const emu::Launch &l, const std::vector<Block> &blocks);

// Captured is a launch read back: the kernel's name, its shapes, each parameter's bytes, and
// the captured allocations (their address then, and their bytes).
struct Captured {
	std::string kernel;
	dim3 grid, block;
	std::vector<std::vector<unsigned char>> params;
	std::vector<std::pair<uint64_t, std::vector<unsigned char>>> blocks;
};
bool read_capture(const std::string &path, Captured *c, std::string *err);

} // namespace fake
