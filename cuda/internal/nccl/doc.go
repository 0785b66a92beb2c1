// Package nccl binds NCCL (libnccl.so.2, e.g. PyTorch's pip-installed nvidia-nccl) at run time:
// unique ids, communicators and the four collectives goaccel runs on device memory.
//
//	l, err := nccl.Load()
//	id, err := l.UniqueID()                   // rank 0; the others get it through the store
//	comm, err := l.InitRank(world, id, rank)
//	err = comm.AllReduce(buf, buf, n, nccl.Float32, nccl.Sum, stream)
//
// Files:
//   - nccl.go: UniqueID, Library (Load, LoadFrom, UniqueID, InitRank), Error, InProgress, Comm
//     (Abort, Destroy, AsyncError, AllReduce, AllGather, Broadcast, ReduceScatter), DataType and
//     RedOp.
package nccl
