// Package shm implements collectives (all-reduce, all-gather, broadcast,
// barrier) between the processes of one host through
// a shared-memory region (a file in Dir mapped by every rank: /dev/shm on
// Linux, the temporary folder on macOS): each
// rank has a double-buffered slot for staging its data and a cache line with
// a sequence number. A round copies the part of the buffer the other ranks
// reduce into the slot, waits for everyone, reduces its own share of the
// buffer (so the reduction runs on all ranks in parallel), publishes it,
// waits again and copies the other ranks' reduced shares out. AllReduceV
// does the same on a list of buffers read as one, in place; a mean's scaling
// rides on the last reduction pass of each share. Waiting spins
// briefly and then sleeps (on a futex on the peer's sequence number on Linux,
// in 50 µs steps on macOS), waking periodically to notice a lost peer or an
// expired context.
//
//	r, err := shm.Create(path, rank, size, shm.DefaultSlotBytes) // rank 0; the others Open(path, rank, size)
//	err = r.AllReduce(ctx, buf, reduce.Float32, reduce.Sum)
//
// The region exists on Linux and macOS; elsewhere Available reports false
// and the CPU backend uses TCP.
//
// Files:
//   - allreduce.go: AllReduce and AllReduceV, the rounds of copying,
//     reducing one's share and copying the others' shares out.
//   - collectives.go: AllGather, Broadcast and Barrier.
//   - region.go: DefaultSlotBytes, Region (Available, Create, Open, Watch,
//     Close), ErrStalled, the sequence numbers and slots in the mapped file,
//     and the waits (waiter; sleepWaiter, macOS's).
//   - wait_linux.go: Dir (/dev/shm) and the futex waits.
//   - wait_darwin.go: Dir (the temporary folder) and the sleeping waits.
//   - region_other.go: the same API elsewhere, unavailable.
package shm
