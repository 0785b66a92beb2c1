// The fake NCCL (libnccl.so.2): real collectives between ranks in any processes of the machine
// (or threads of one), through a shared-memory segment named by the unique id. Each collective
// runs on the stream it was queued on: every rank copies its part into its slot, the ranks meet
// at a barrier, each computes its result from all slots in rank order (so every rank gets the
// same bits), and they meet again before the slots are reused; large buffers go through in
// chunks. As real NCCL does, it refuses two ranks on one GPU, checks that buffers are memory of
// the communicator's GPU, and, when a rank aborts its communicator or a peer process dies, makes
// the pending and later collectives of the others end with an asynchronous error instead of
// hanging.
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>

#include "emu/emu.h"
#include "fake.h"

using namespace fake;

namespace {

enum { N_OK = 0, N_UNHANDLED_CUDA = 1, N_SYSTEM = 2, N_INTERNAL = 3, N_INVALID_ARGUMENT = 4, N_INVALID_USAGE = 5, N_REMOTE = 6, N_IN_PROGRESS = 7 };
enum { I8, U8, I32, U32, I64, U64, F16, F32, F64, BF16 };
enum { SUM, PROD, MAX, MIN, AVG };

constexpr int kMaxRanks = 64;
constexpr size_t kSlot = 1 << 20;
const char kMagic[16] = "goaccel-nccl-1";

struct Id {
	char magic[16];
	uint64_t token;
	char rest[128 - 24];
};
static_assert(sizeof(Id) == 128);

struct RankInfo {
	int32_t pid, device;
	std::atomic<uint32_t> present;
};

struct Shared {
	std::atomic<uint32_t> joined, arrive, generation, aborted;
	RankInfo ranks[kMaxRanks];
};

size_t header() { return (sizeof(Shared) + 4095) / 4096 * 4096; }

struct Comm {
	Shared *sh;
	size_t len;
	int rank, nranks, device;
	std::atomic<bool> aborted{false};
	std::atomic<int> async{N_OK};
	char *slot(int r) { return (char *)sh + header() + (size_t)r * kSlot; }
};

std::mutex mu;
std::set<Comm *> comms;

Comm *comm_of(void *c) {
	std::lock_guard<std::mutex> lk(mu);
	return comms.count((Comm *)c) ? (Comm *)c : nullptr;
}

std::string shm_name(uint64_t token) {
	char buf[64];
	snprintf(buf, sizeof buf, "/goaccel-fakenccl-%016llx", (unsigned long long)token);
	return buf;
}

void futex_wait(std::atomic<uint32_t> *w, uint32_t v, long ns) {
	timespec ts{0, ns};
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, v, &ts, nullptr, 0);
}
void futex_wake(std::atomic<uint32_t> *w) { syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, 1 << 30, nullptr, nullptr, 0); }

// broken returns why c can go on no more: this rank aborted, another one did, or a peer's
// process is gone (N_OK while all is well).
int broken(Comm &c) {
	if (c.aborted) return N_INVALID_USAGE;
	if (c.sh->aborted.load()) return N_REMOTE;
	for (int r = 0; r < c.nranks; r++) {
		int pid = c.sh->ranks[r].pid;
		if (c.sh->ranks[r].present.load() && pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) return N_REMOTE;
	}
	return N_OK;
}

// barrier waits for every rank (N_OK) or for the communicator to break.
int barrier(Comm &c) {
	Shared &s = *c.sh;
	uint32_t gen = s.generation.load();
	if (s.arrive.fetch_add(1) + 1 == (uint32_t)c.nranks) {
		s.arrive.store(0);
		s.generation.fetch_add(1);
		futex_wake(&s.generation);
		return N_OK;
	}
	while (s.generation.load() == gen) {
		futex_wait(&s.generation, gen, 20 * 1000 * 1000);
		if (s.generation.load() != gen) break;
		if (int e = broken(c)) return e;
	}
	return N_OK;
}

size_t type_size(int dt) {
	switch (dt) {
	case I8: case U8: return 1;
	case F16: case BF16: return 2;
	case I32: case U32: case F32: return 4;
	}
	return 8;
}

template <typename T> T combine(int op, T a, T b) {
	switch (op) {
	case PROD: return a * b;
	case MAX: return a > b ? a : b;
	case MIN: return a < b ? a : b;
	}
	return a + b;
}

// reduce sets out[i] to the reduction over the ranks of in(r)[i], in rank order.
template <typename T> void reduce_typed(Comm &c, int op, size_t n, const char *const *in, char *out) {
	for (size_t i = 0; i < n; i++) {
		T v = ((const T *)in[0])[i];
		for (int r = 1; r < c.nranks; r++) v = combine<T>(op, v, ((const T *)in[r])[i]);
		if (op == AVG) v = (T)(v / (T)c.nranks);
		((T *)out)[i] = v;
	}
}

// The 16-bit floats add in float32, rounded after every step.
template <bool BF> void reduce_half(Comm &c, int op, size_t n, const char *const *in, char *out) {
	auto widen = [](uint16_t h) { return BF ? emu::bf16_bits_to_f32(h) : emu::f16_bits_to_f32(h); };
	auto narrow = [](float f) { return BF ? emu::f32_to_bf16_bits(f) : emu::f32_to_f16_bits(f); };
	for (size_t i = 0; i < n; i++) {
		uint16_t v = ((const uint16_t *)in[0])[i];
		for (int r = 1; r < c.nranks; r++) v = narrow(combine<float>(op == AVG ? SUM : op, widen(v), widen(((const uint16_t *)in[r])[i])));
		if (op == AVG) v = narrow(widen(v) / (float)c.nranks);
		((uint16_t *)out)[i] = v;
	}
}

void reduce(Comm &c, int dt, int op, size_t n, const char *const *in, char *out) {
	switch (dt) {
	case I8: return reduce_typed<int8_t>(c, op, n, in, out);
	case U8: return reduce_typed<uint8_t>(c, op, n, in, out);
	case I32: return reduce_typed<int32_t>(c, op, n, in, out);
	case U32: return reduce_typed<uint32_t>(c, op, n, in, out);
	case I64: return reduce_typed<int64_t>(c, op, n, in, out);
	case U64: return reduce_typed<uint64_t>(c, op, n, in, out);
	case F16: return reduce_half<false>(c, op, n, in, out);
	case F32: return reduce_typed<float>(c, op, n, in, out);
	case F64: return reduce_typed<double>(c, op, n, in, out);
	case BF16: return reduce_half<true>(c, op, n, in, out);
	}
}

enum Kind { ALL_REDUCE, ALL_GATHER, BROADCAST, REDUCE_SCATTER };

struct Coll {
	Kind kind;
	const char *name;
	uintptr_t send, recv;
	size_t count;
	int dt, op, root;
};

// run does one collective on this rank; on a broken communicator it records the error and
// stops (the stream goes on: NCCL's failures are asynchronous errors, not CUDA errors).
void run(Comm &c, const Coll &k) {
	size_t es = type_size(k.dt);
	const char *in[kMaxRanks];
	auto meet = [&c]() {
		if (int e = barrier(c)) {
			int ok = N_OK;
			c.async.compare_exchange_strong(ok, e);
			return false;
		}
		return true;
	};
	size_t chunk = k.kind == REDUCE_SCATTER ? kSlot / (es * c.nranks) : kSlot / es;
	for (size_t off = 0; off < k.count; off += chunk) {
		size_t n = k.count - off < chunk ? k.count - off : chunk;
		const char *send = (const char *)k.send;
		switch (k.kind) {
		case ALL_REDUCE:
		case ALL_GATHER: memcpy(c.slot(c.rank), send + off * es, n * es); break;
		case BROADCAST:
			if (c.rank == k.root) memcpy(c.slot(c.rank), send + off * es, n * es);
			break;
		case REDUCE_SCATTER:
			for (int j = 0; j < c.nranks; j++) memcpy(c.slot(c.rank) + (size_t)j * n * es, send + ((size_t)j * k.count + off) * es, n * es);
			break;
		}
		if (!meet()) return;
		char *recv = (char *)k.recv;
		switch (k.kind) {
		case ALL_REDUCE:
			for (int r = 0; r < c.nranks; r++) in[r] = c.slot(r);
			reduce(c, k.dt, k.op, n, in, recv + off * es);
			break;
		case ALL_GATHER:
			for (int r = 0; r < c.nranks; r++) memcpy(recv + ((size_t)r * k.count + off) * es, c.slot(r), n * es);
			break;
		case BROADCAST: memcpy(recv + off * es, c.slot(k.root), n * es); break;
		case REDUCE_SCATTER:
			for (int r = 0; r < c.nranks; r++) in[r] = c.slot(r) + (size_t)c.rank * n * es;
			reduce(c, k.dt, k.op, n, in, recv + off * es);
			break;
		}
		if (!meet()) return;
	}
}

int queue(void *hc, void *hs, Coll k) {
	rec(k.kind == ALL_REDUCE ? "ncclAllReduce n=%zu dt=%d op=%d" : k.kind == ALL_GATHER ? "ncclAllGather n=%zu dt=%d" : k.kind == BROADCAST ? "ncclBroadcast n=%zu dt=%d root=%d" : "ncclReduceScatter n=%zu dt=%d op=%d",
		k.count, k.dt, k.kind == BROADCAST ? k.root : k.op);
	Comm *c = comm_of(hc);
	if (!c) return N_INVALID_ARGUMENT;
	if (k.dt < I8 || k.dt > BF16 || k.op < SUM || k.op > AVG) return N_INVALID_ARGUMENT;
	if (k.kind == BROADCAST && (k.root < 0 || k.root >= c->nranks)) return N_INVALID_ARGUMENT;
	if (int e = c->async.load()) return e;
	if (c->aborted) return N_INVALID_USAGE;
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return N_UNHANDLED_CUDA;
	if (stream_device(s) != c->device) return N_INVALID_USAGE;
	size_t es = type_size(k.dt), sendn = k.count, recvn = k.count;
	if (k.kind == ALL_GATHER) recvn *= c->nranks;
	if (k.kind == REDUCE_SCATTER) sendn *= c->nranks;
	Block b;
	if (k.count > 0) {
		bool needSend = k.kind != BROADCAST || c->rank == k.root;
		if ((needSend && (!in_device(k.send, sendn * es, &b, nullptr) || b.device != c->device)) || !in_device(k.recv, recvn * es, &b, nullptr) || b.device != c->device) {
			rec("%s: ncclInvalidArgument: a buffer is not memory of the communicator's GPU cuda:%d", k.name, c->device);
			return N_INVALID_ARGUMENT;
		}
	}
	enqueue(s, [c, k](std::string *) {
		Activity act(k.name);
		if (sticky() == OK && !c->aborted && c->async.load() == N_OK) run(*c, k);
		return OK;
	});
	return N_OK;
}

} // namespace

API int ncclGetVersion(int *v) {
	*v = 22805;
	return N_OK;
}

API int ncclGetUniqueId(Id *id) {
	memset(id, 0, sizeof *id);
	memcpy(id->magic, kMagic, sizeof kMagic);
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, &id->token, sizeof id->token) != sizeof id->token) {
		if (fd >= 0) close(fd);
		return N_SYSTEM;
	}
	close(fd);
	return N_OK;
}

API int ncclCommInitRank(void **out, int nranks, Id id, int rank) {
	unsigned sum = 0;
	for (int i = 0; i < 128; i++) sum = sum * 31 + ((unsigned char *)&id)[i];
	rec("ncclCommInitRank nranks=%d rank=%d id0=%d id127=%d idsum=%u", nranks, rank, ((signed char *)&id)[0], ((signed char *)&id)[127], sum);
	if (nranks < 1 || nranks > kMaxRanks || rank < 0 || rank >= nranks) return N_INVALID_ARGUMENT;
	if (memcmp(id.magic, kMagic, sizeof kMagic) != 0) {
		rec("ncclCommInitRank: ncclInvalidArgument: not an id from ncclGetUniqueId");
		return N_INVALID_ARGUMENT;
	}
	int device = current_device();
	if (device < 0) return N_UNHANDLED_CUDA;
	std::string name = shm_name(id.token);
	size_t len = header() + (size_t)nranks * kSlot;
	int fd = shm_open(name.c_str(), O_RDWR | O_CREAT, 0600);
	if (fd < 0) return N_SYSTEM;
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		return N_SYSTEM;
	}
	void *m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) return N_SYSTEM;
	Comm *c = new Comm;
	c->sh = (Shared *)m;
	c->len = len;
	c->rank = rank;
	c->nranks = nranks;
	c->device = device;
	RankInfo &me = c->sh->ranks[rank];
	if (me.present.exchange(1) != 0) {
		rec("ncclCommInitRank: ncclInvalidUsage: rank %d joined twice", rank);
		munmap(m, len);
		delete c;
		return N_INVALID_USAGE;
	}
	me.pid = getpid();
	me.device = device;
	c->sh->joined.fetch_add(1);
	// Wait for the others (NCCL's init blocks until every rank has joined).
	while (c->sh->joined.load() < (uint32_t)nranks) {
		if (c->sh->aborted.load()) {
			munmap(m, len);
			delete c;
			return N_REMOTE;
		}
		usleep(1000);
	}
	if (int e = barrier(*c)) {
		munmap(m, len);
		delete c;
		return e;
	}
	// The emulated GPUs are the machine's: ranks in different processes on cuda:0 share one.
	for (int r = 0; r < nranks; r++)
		if (r != rank && c->sh->ranks[r].device == device) {
			rec("ncclCommInitRank: ncclInvalidUsage: Duplicate GPU detected: rank %d and rank %d both on cuda:%d", rank, r, device);
			munmap(m, len);
			delete c;
			return N_INVALID_USAGE;
		}
	if (rank == 0) shm_unlink(name.c_str()); // everyone has it mapped
	std::lock_guard<std::mutex> lk(mu);
	comms.insert(c);
	*out = c;
	return N_OK;
}

API int ncclCommAbort(void *hc) {
	rec("ncclCommAbort");
	Comm *c = comm_of(hc);
	if (!c) return N_INVALID_ARGUMENT;
	c->aborted = true;
	c->sh->aborted.store(1);
	futex_wake(&c->sh->generation);
	std::lock_guard<std::mutex> lk(mu);
	comms.erase(c); // its mapping stays: queued collectives may still look at it
	return N_OK;
}

API int ncclCommDestroy(void *hc) {
	rec("ncclCommDestroy");
	Comm *c = comm_of(hc);
	if (!c) return N_INVALID_ARGUMENT;
	sync_device(c->device); // NCCL frees a communicator once its operations are done
	std::lock_guard<std::mutex> lk(mu);
	comms.erase(c);
	munmap(c->sh, c->len);
	delete c;
	return N_OK;
}

API int ncclCommGetAsyncError(void *hc, int *r) {
	std::lock_guard<std::mutex> lk(mu);
	Comm *c = (Comm *)hc;
	if (!comms.count(c)) return N_INVALID_ARGUMENT;
	// NCCL's proxy notices a peer that aborted or died before any collective needs it.
	int ok = N_OK;
	if (int e = broken(*c); e == N_REMOTE) c->async.compare_exchange_strong(ok, e);
	*r = c->async.load();
	return N_OK;
}

API const char *ncclGetErrorString(int r) {
	switch (r) {
	case N_OK: return "no error";
	case N_UNHANDLED_CUDA: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
	case N_SYSTEM: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
	case N_INTERNAL: return "internal error - please report this issue to the NCCL developers";
	case N_INVALID_ARGUMENT: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
	case N_INVALID_USAGE: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
	case N_REMOTE: return "remote process exited or there was a network error";
	case N_IN_PROGRESS: return "NCCL operation in progress";
	}
	return "unknown result code";
}

API int ncclAllReduce(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream) {
	return queue(comm, stream, Coll{ALL_REDUCE, "ncclAllReduce", (uintptr_t)s, (uintptr_t)r, n, dt, op, 0});
}
API int ncclAllGather(const void *s, void *r, size_t n, int dt, void *comm, void *stream) {
	return queue(comm, stream, Coll{ALL_GATHER, "ncclAllGather", (uintptr_t)s, (uintptr_t)r, n, dt, SUM, 0});
}
API int ncclBroadcast(const void *s, void *r, size_t n, int dt, int root, void *comm, void *stream) {
	return queue(comm, stream, Coll{BROADCAST, "ncclBroadcast", (uintptr_t)s, (uintptr_t)r, n, dt, SUM, root});
}
API int ncclReduceScatter(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream) {
	return queue(comm, stream, Coll{REDUCE_SCATTER, "ncclReduceScatter", (uintptr_t)s, (uintptr_t)r, n, dt, op, 0});
}
