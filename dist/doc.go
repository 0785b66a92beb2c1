// Package dist is goaccel's process group: it joins the processes a launcher
// started (torchrun's environment, Open MPI's or Slurm's), meets them at a
// token-protected rendezvous store, and runs collectives between them —
// all-reduce (Sum, Mean, Max, Min; of one buffer or, coalesced, of several
// as one collective), all-gather (equal and unequal lengths),
// broadcast, reduce-scatter, barrier, and gather/broadcast of Go values.
//
//	cfg, err := dist.FromEnv() // RANK, WORLD_SIZE, MASTER_ADDR, ...
//	if err != nil { ... }
//	g, err := dist.Init(ctx, cfg)
//	if err != nil { ... }
//	defer g.Close()
//	err = g.AllReduce(ctx, grads, dist.Mean)
//
// The CPU backend moves all-reduce (each rank reduces its share in
// parallel), all-gather, broadcast and barrier through shared memory when
// every rank is on one host, and uses pipelined ring algorithms over TCP
// otherwise (and for reduce-scatter); across hosts with several ranks each,
// all-reduce is hierarchical (shared memory on each host, a ring between
// hosts). Other backends (NCCL, package cuda/nccl) plug
// in through RegisterBackend and the Backend interface, as database drivers
// do under database/sql; a DeviceBackend also takes the tensor collectives
// of its device's tensors without a trip through the host.
//
// Sub-groups: Group.NewGroup (torch.distributed.new_group) and Group.Split (MPI_Comm_split,
// ncclCommSplit, a device mesh's rows and columns) make groups of some of the ranks whose
// collectives run among those ranks only, over the parent's connections: shared memory between
// the members on one host, rings over TCP otherwise, and a communicator of their own under a
// device backend (NCCL). Every rank of the parent calls them, in the same order.
//
// Rendezvous: rank 0 hosts the store at MASTER_ADDR:MASTER_PORT (on
// loopback unless MASTER_ADDR is another address), or a launcher hosts one
// with ServeStore and passes GOACCEL_STORE_ADDR. Every store and peer
// connection must prove it knows the job's GOACCEL_STORE_TOKEN (an
// HMAC-SHA256 challenge); on one host without a token, rank 0 makes one and
// shares it through a file only this user can read. GOACCEL_DIST_TRANSPORT
// (auto, shm, tcp) and GOACCEL_DIST_TIMEOUT (a Go duration) tune the group.
//
// Every collective is recorded, numbered, in the process's status
// (the Worker of the process's host, internal/host): a launcher shows which collective each rank is in
// and reports one that some ranks never joined, long before the timeout.
//
// Failures never hang: every collective has a timeout (Config.Timeout,
// 30 minutes by default), and a rank whose process dies or disconnects makes
// every other rank's collective fail within moments with an error that names
// it and matches errors.Is(err, ErrPeerLost). Without WORLD_SIZE the group
// has one process and every collective is the identity.
//
// Files:
//   - backend.go: Op (Sum, Mean/Avg, Max, Min), DType, the Backend and Store
//     interfaces, Rendezvous, OpenFunc, RegisterBackend and Backends.
//   - coalesced.go: AllReduceCoalesced, several buffers reduced as one
//     collective.
//   - collectives.go: the collectives on Go slices: AllReduce, AllGather,
//     AllGatherV, Broadcast, ReduceScatter and Barrier (float32, float64,
//     int64 and byte forms).
//   - config.go: DefaultTimeout, the GOACCEL_* environment variables, Config
//     and FromEnv (torchrun's, Open MPI's and Slurm's environments).
//   - cpu.go: the CPU backend: shared memory on one host, rings over TCP
//     across hosts, hierarchical all-reduce.
//   - device.go: DeviceBackend, CPUBackend, StartAllReduceTensor,
//     AllGatherIntoTensor, StartAllGatherIntoTensor and ReduceScatterTensor.
//   - errors.go: ErrPeerLost, ErrClosed and PeerLostError.
//   - group.go: Group (Rank, Size, LocalRank, LocalSize, Config,
//     SetTimeout, Transport, Close): timeouts, the broken state after a
//     failure, and each collective's event in a profile (accelerate.Profile).
//   - init.go: Init: the rendezvous, host identities, the backend, and
//     errors that name a lost peer.
//   - object.go: GatherObject and BroadcastObject, Go values through gob.
//   - subgroup.go: NewGroup, Split and ErrNotMember: groups of some of the ranks, over the
//     parent's connections and store.
//   - store.go: StoreServer, ServeStore and NewToken, a store a launcher
//     hosts.
//   - tensor.go: AllReduceTensor, BroadcastTensor and AllGatherTensor.
//   - token.go: the token file a one-host job without GOACCEL_STORE_TOKEN
//     shares.
package dist
