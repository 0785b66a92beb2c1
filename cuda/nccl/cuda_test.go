package nccl

// The tests move tensors to cuda devices (the fake driver's): the CUDA device
// registers itself when its package is imported.
import _ "github.com/goaccel/goaccel/cuda"
