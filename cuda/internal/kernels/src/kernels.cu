// goaccel's CUDA kernels: one module, compiled to PTX for compute_80 (JIT-compiled by newer
// drivers for their GPU) by `make ptx`, embedded in package kernels.
#include "common.cuh"
#include "elementwise.cuh"
#include "reduce.cuh"
#include "nn.cuh"
#include "optim.cuh"
#include "attention.cuh"
