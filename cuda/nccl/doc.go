// Package nccl is the "nccl" collective backend of package dist: device tensors are reduced,
// gathered and broadcast by NCCL (libnccl.so.2, loaded at run time: PyTorch's pip-installed
// nvidia-nccl works) directly in GPU memory, one process per GPU, while host buffers, objects
// and barriers keep using the CPU backend. Importing the package registers the backend;
// package accelerate imports it and picks it when every process has a GPU of its own.
//
// Rank 0 creates NCCL's unique id and shares it through the rendezvous store. The all-reduce of
// gradient buckets runs on a stream of its own, alongside the backward pass: its wait keeps the
// bucket alive, and the caching allocator is told the stream uses the bucket's block, so no
// tensor gets that memory before the all-reduce is done. When a peer is lost
// the communicator is aborted (ncclCommAbort), so a dead rank never leaves the others waiting in
// NCCL.
//
//	import _ "github.com/goaccel/goaccel/cuda/nccl"
//
//	if nccl.Available(localProcesses) == nil {
//		cfg.Backend = "nccl"
//	}
//	g, err := dist.Init(ctx, cfg)
//	wait, err := g.StartAllReduceTensor(ctx, grads, dist.Mean) // a device tensor, in GPU memory
//
// Files:
//   - nccl.go: the registration with dist, Available, the unique id exchanged through the
//     store, and the backend's collectives on device tensors (all-reduce started on its own
//     stream, broadcast, all-gather, reduce-scatter) and Close.
package nccl
