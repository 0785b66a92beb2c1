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
package shm
