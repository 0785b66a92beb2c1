// Package shm implements collectives (all-reduce, all-gather, broadcast,
// barrier) between the processes of one host through
// a shared-memory region (a file under /dev/shm mapped by every rank): each
// rank has a double-buffered slot for staging its data and a cache line with
// a sequence number. A round copies the part of the buffer the other ranks
// reduce into the slot, waits for everyone, reduces its own share of the
// buffer (so the reduction runs on all ranks in parallel), publishes it,
// waits again and copies the other ranks' reduced shares out. AllReduceV
// does the same on a list of buffers read as one, in place; a mean's scaling
// rides on the last reduction pass of each share. Waiting spins
// briefly and then sleeps on a futex on the peer's sequence number, waking
// periodically to notice a lost peer or an expired context.
//
//	r, err := shm.Create(path, rank, size, shm.DefaultSlotBytes) // rank 0; the others Open(path, rank, size)
//	err = r.AllReduce(ctx, buf, reduce.Float32, reduce.Sum)
//
// The region exists on Linux only; elsewhere Available reports false and
// the CPU backend uses TCP.
//
// Files:
//   - allreduce.go: AllReduce and AllReduceV, the rounds of copying,
//     reducing one's share and copying the others' shares out.
//   - collectives.go: AllGather, Broadcast and Barrier.
//   - region_linux.go: DefaultSlotBytes, Region (Available, Create, Open,
//     Watch, Close), ErrStalled, and the sequence numbers, futex waits and
//     slots in the mapped file.
//   - region_other.go: the same API off Linux, unavailable.
package shm
