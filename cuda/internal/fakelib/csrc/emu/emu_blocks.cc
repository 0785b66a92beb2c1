// How a launch runs on the CPU. The blocks of a grid are shared out to a pool of OS threads;
// the threads of one block run as fibers (each with its own stack) on one OS thread, in order,
// switching only where CUDA threads wait for each other. So a kernel without barriers costs a
// function call per CUDA thread, and __shared__ memory (thread_local) is the block's own.
//
// Every synchronisation is checked, and a launch fails with a message instead of hanging or
// returning undefined values when:
//   - threads of a block reach different __syncthreads calls (or one exits while others wait);
//   - a warp operation's lanes disagree (different masks, operations or lines), a lane is missing
//     from its own mask, a mask names a lane that exited or does not exist, or a shuffle reads a
//     lane that does not take part;
//   - the block deadlocks in any other way.
// Built with EMU_TSAN, every fiber is a ThreadSanitizer fiber and every synchronisation a
// happens-before edge, so the sanitizer reports races between the threads of a block (a missing
// __syncthreads) and between blocks.
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "kernel.h"

#ifdef EMU_TSAN
#include <sanitizer/tsan_interface.h>
#define TSAN_RELEASE(p) __tsan_release((void *)(p))
#define TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#else
#define TSAN_RELEASE(p) ((void)0)
#define TSAN_ACQUIRE(p) ((void)0)
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace emu {

// ---- the registry ----

static Kernel *registry;
Kernel *kernels() { return registry; }
void register_kernel(Kernel *k) {
	k->next = registry;
	registry = k;
}
Kernel *find_kernel(const char *name) {
	for (Kernel *k = registry; k; k = k->next)
		if (strcmp(k->name, name) == 0) return k;
	return nullptr;
}

// ---- context switches ----

#if defined(__x86_64__)
// swap saves the callee-saved registers, the SSE and x87 control words and the stack pointer
// in *from and resumes the context saved in to. A new context's first resume enters
// fiber_entry, which calls fiber_main with the fiber (kept in r12).
extern "C" void emu_swap(void **from, void *to);
extern "C" void emu_fiber_entry();
asm(R"(
	.text
	.p2align 4
	.type emu_swap,@function
emu_swap:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	subq $16, %rsp
	stmxcsr 8(%rsp)
	fnstcw (%rsp)
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	ldmxcsr 8(%rsp)
	fldcw (%rsp)
	addq $16, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.size emu_swap, .-emu_swap
	.p2align 4
	.type emu_fiber_entry,@function
emu_fiber_entry:
	movq %r12, %rdi
	call emu_fiber_main
	ud2
	.size emu_fiber_entry, .-emu_fiber_entry
)");
#endif

struct Fiber;
extern "C" [[noreturn]] void emu_fiber_main(Fiber *f);

enum Wait { NONE, AT_BARRIER, AT_WARP, EXITED };

struct WarpOp;

struct Fiber {
	unsigned idx; // linear thread index in the block
	uint3 tid;
	Wait wait;
	site at;        // where it waits
	WarpOp *op;     // the warp operation it waits in
	char *stack;    // its stack mapping (guard page first)
#if defined(__x86_64__)
	void *sp;
#else
	ucontext_t uc;
#endif
#ifdef EMU_TSAN
	void *tsan;
#endif
};

struct WarpOp {
	warp_kind kind;
	unsigned warp, mask, arrived, left; // left: lanes that have read the result
	site at;
	uint64_t vals[32];
	bool used;
};

static const char *kind_name(warp_kind k) {
	switch (k) {
	case W_SHFL: return "__shfl_sync";
	case W_SHFL_UP: return "__shfl_up_sync";
	case W_SHFL_DOWN: return "__shfl_down_sync";
	case W_SHFL_XOR: return "__shfl_xor_sync";
	case W_BALLOT: return "__ballot_sync";
	case W_ANY: return "__any_sync";
	case W_ALL: return "__all_sync";
	case W_SYNC: return "__syncwarp";
	}
	return "a warp operation";
}

static bool same_site(const site &a, const site &b) {
	return a.line() == b.line() && a.column() == b.column() && strcmp(a.file_name(), b.file_name()) == 0;
}

static std::string where(const site &s) {
	const char *f = strrchr(s.file_name(), '/');
	return std::string(f ? f + 1 : s.file_name()) + ":" + std::to_string(s.line());
}

static std::string fmt(const char *format, ...) {
	char buf[1024];
	va_list ap;
	va_start(ap, format);
	vsnprintf(buf, sizeof buf, format, ap);
	va_end(ap);
	return buf;
}

static std::string tname(const uint3 &t) { return fmt("(%u,%u,%u)", t.x, t.y, t.z); }

constexpr size_t kStack = 256 << 10;
constexpr unsigned kMaxThreads = 1024;

// Executor runs blocks on one OS thread.
struct Executor {
	Fiber fibers[kMaxThreads];
	unsigned nstacks = 0;
#if defined(__x86_64__)
	void *sched_sp;
#else
	ucontext_t sched_uc;
#endif
#ifdef EMU_TSAN
	void *sched_tsan;
	char launch_sync, exit_sync, barrier_sync;
#endif
	Fiber *cur = nullptr;
	const Launch *l = nullptr;
	unsigned n = 0, exited = 0;
	unsigned runq[kMaxThreads];
	unsigned qhead = 0, qlen = 0;
	// the block barrier
	unsigned bar_arrived = 0;
	site bar_at;
	unsigned bar_first = 0;
	// warp operations in progress (a warp may have several, over disjoint masks)
	WarpOp ops[64];
	bool failed = false;
	std::string error;
	Running running{};

	~Executor() {
		for (unsigned i = 0; i < nstacks; i++) munmap(fibers[i].stack, kStack);
	}
};

static thread_local std::unique_ptr<Executor> tl_exec;
static thread_local Executor *ex;

const Running *current() { return ex && ex->cur ? &ex->running : nullptr; }

static void push(Executor &e, unsigned i) {
	e.runq[(e.qhead + e.qlen++) % kMaxThreads] = i;
}

// to_scheduler switches from the running fiber back to its block's scheduler.
static void to_scheduler(Executor &e) {
	Fiber *f = e.cur;
#ifdef EMU_TSAN
	__tsan_switch_to_fiber(e.sched_tsan, 1 /* no synchronisation: only real waits order threads */);
#endif
#if defined(__x86_64__)
	emu_swap(&f->sp, e.sched_sp);
#else
	swapcontext(&f->uc, &e.sched_uc);
#endif
}

// fail records the launch's failure and leaves the fiber for good (a fiber is abandoned, never
// unwound: kernels hold no resources).
[[noreturn]] static void fail(Executor &e, std::string msg) {
	if (!e.failed) {
		e.failed = true;
		e.error = std::move(msg);
	}
	e.cur->wait = EXITED;
	to_scheduler(e);
	abort(); // never resumed
}

// park makes the running fiber wait until another one wakes it.
static void park(Executor &e) {
	to_scheduler(e);
	if (e.failed) fail(e, ""); // resumed only to be abandoned (not reached: failed blocks stop)
}

static void wake(Executor &e, Fiber &f) {
	f.wait = NONE;
	f.op = nullptr;
	push(e, f.idx);
}

static unsigned warp_lanes(const Executor &e, unsigned warp) {
	unsigned first = warp * 32, n = e.n - first < 32 ? e.n - first : 32;
	return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

static unsigned warp_exited(const Executor &e, unsigned warp) {
	unsigned m = 0;
	for (unsigned l = 0; l < 32 && warp * 32 + l < e.n; l++)
		if (e.fibers[warp * 32 + l].wait == EXITED) m |= 1u << l;
	return m;
}

// ranges lists the threads (linear indices) for which pred holds, as "0-31, 64".
template <typename P> static std::string ranges(const Executor &e, P pred) {
	std::string s;
	for (unsigned i = 0; i < e.n;) {
		if (!pred(e.fibers[i])) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j + 1 < e.n && pred(e.fibers[j + 1])) j++;
		if (!s.empty()) s += ", ";
		s += j == i ? std::to_string(i) : std::to_string(i) + "-" + std::to_string(j);
		i = j + 1;
	}
	return s;
}

// ---- the operations kernels call ----

void sync_block(const site &at) {
	Executor &e = *ex;
	Fiber &f = *e.cur;
	if (e.exited > 0)
		fail(e, fmt("thread %s reaches __syncthreads at %s, but threads %s of the block have exited: every thread of a block must reach each __syncthreads",
			tname(f.tid).c_str(), where(at).c_str(), ranges(e, [](const Fiber &g) { return g.wait == EXITED; }).c_str()));
	if (e.bar_arrived == 0) {
		e.bar_at = at;
		e.bar_first = f.idx;
	} else if (!same_site(e.bar_at, at)) {
		fail(e, fmt("threads of one block reach different __syncthreads: thread %s at %s, while thread %s waits at %s",
			tname(f.tid).c_str(), where(at).c_str(), tname(e.fibers[e.bar_first].tid).c_str(), where(e.bar_at).c_str()));
	}
	TSAN_RELEASE(&e.barrier_sync);
	if (++e.bar_arrived < e.n) {
		f.wait = AT_BARRIER;
		f.at = at;
		park(e);
	} else {
		e.bar_arrived = 0;
		for (unsigned i = 0; i < e.n; i++)
			if (e.fibers[i].wait == AT_BARRIER) wake(e, e.fibers[i]);
	}
	TSAN_ACQUIRE(&e.barrier_sync);
}

// join enters the running lane into its warp's operation over mask and waits for the other
// lanes of the mask; it returns the completed operation (valid until this lane calls leave).
static WarpOp *join(Executor &e, warp_kind kind, unsigned mask, uint64_t value, const site &at) {
	Fiber &f = *e.cur;
	unsigned warp = f.idx / 32, lane = f.idx % 32, bit = 1u << lane;
	if (!(mask & bit))
		fail(e, fmt("thread %s (lane %u) calls %s at %s with mask %#x, which leaves it out", tname(f.tid).c_str(), lane, kind_name(kind), where(at).c_str(), mask));
	if (mask & ~warp_lanes(e, warp))
		fail(e, fmt("thread %s calls %s at %s with mask %#x, which names lanes the block does not have (its warp %u has lanes %#x)",
			tname(f.tid).c_str(), kind_name(kind), where(at).c_str(), mask, warp, warp_lanes(e, warp)));
	WarpOp *op = nullptr;
	for (WarpOp &o : e.ops) {
		if (!o.used || o.warp != warp || o.arrived == o.mask || (o.mask & mask) == 0) continue;
		if (o.mask != mask || o.kind != kind || !same_site(o.at, at))
			fail(e, fmt("lanes of warp %u disagree: thread %s calls %s at %s with mask %#x, while lanes %#x wait in %s at %s with mask %#x",
				warp, tname(f.tid).c_str(), kind_name(kind), where(at).c_str(), mask, o.arrived, kind_name(o.kind), where(o.at).c_str(), o.mask));
		op = &o;
		break;
	}
	if (!op) {
		if (unsigned gone = warp_exited(e, warp) & mask)
			fail(e, fmt("thread %s calls %s at %s with mask %#x, but lanes %#x of that mask have exited", tname(f.tid).c_str(), kind_name(kind), where(at).c_str(), mask, gone));
		for (WarpOp &o : e.ops)
			if (!o.used) {
				op = &o;
				break;
			}
		if (!op) fail(e, "more than 64 warp operations in progress in one block");
		op->kind = kind;
		op->mask = mask;
		op->arrived = op->left = 0;
		op->warp = warp;
		op->at = at;
		op->used = true;
	}
	op->vals[lane] = value;
	op->arrived |= bit;
	TSAN_RELEASE(op);
	if (op->arrived != mask) {
		f.wait = AT_WARP;
		f.at = at;
		f.op = op;
		park(e);
	} else {
		for (unsigned l = 0; l < 32; l++)
			if ((mask >> l & 1) && l != lane) wake(e, e.fibers[warp * 32 + l]);
	}
	TSAN_ACQUIRE(op);
	return op;
}

static void leave(WarpOp *op) {
	if (++op->left == (unsigned)__builtin_popcount(op->mask)) op->used = false;
}

uint64_t warp_exchange(warp_kind kind, unsigned mask, uint64_t value, int src, const site &at) {
	Executor &e = *ex;
	Fiber &f = *e.cur;
	WarpOp *op = join(e, kind, mask, value, at);
	uint64_t r = value;
	if (src >= 0 && kind != W_SYNC) {
		if (src > 31 || !(mask >> src & 1)) {
			unsigned m = op->mask;
			leave(op);
			fail(e, fmt("thread %s reads lane %d in %s at %s, but that lane is not in the mask %#x (its value is undefined on a GPU)",
				tname(f.tid).c_str(), src, kind_name(kind), where(at).c_str(), m));
		}
		r = op->vals[src];
	}
	leave(op);
	return r;
}

unsigned warp_vote(warp_kind kind, unsigned mask, bool pred, const site &at) {
	Executor &e = *ex;
	WarpOp *op = join(e, kind, mask, pred, at);
	unsigned r = 0;
	for (unsigned l = 0; l < 32; l++)
		if ((mask >> l & 1) && op->vals[l]) r |= 1u << l;
	leave(op);
	return r;
}

unsigned active_mask() {
	Executor &e = *ex;
	unsigned warp = e.cur->idx / 32;
	return warp_lanes(e, warp) & ~warp_exited(e, warp);
}

void trap(const site &at) {
	Executor &e = *ex;
	fail(e, fmt("thread %s executed __trap at %s", tname(e.cur->tid).c_str(), where(at).c_str()));
}

// ---- running a block ----

// exit_checks fails the block when a fiber that just exited leaves others waiting for it.
static void exit_checks(Executor &e, Fiber &f) {
	if (e.bar_arrived > 0)
		fail(e, fmt("thread %s exits while threads %s wait at __syncthreads at %s: every thread of a block must reach each __syncthreads",
			tname(f.tid).c_str(), ranges(e, [](const Fiber &g) { return g.wait == AT_BARRIER; }).c_str(), where(e.bar_at).c_str()));
	unsigned warp = f.idx / 32, bit = 1u << (f.idx % 32);
	for (WarpOp &o : e.ops)
		if (o.used && o.warp == warp && o.arrived != o.mask && (o.mask & bit))
			fail(e, fmt("thread %s exits while lanes %#x of its warp wait for it in %s at %s (mask %#x)", tname(f.tid).c_str(), o.arrived,
				kind_name(o.kind), where(o.at).c_str(), o.mask));
}

extern "C" [[noreturn]] void emu_fiber_main(Fiber *f) {
	Executor &e = *ex;
	TSAN_ACQUIRE(&e.launch_sync);
	e.l->kernel->call(e.l->args);
	e.exited++;
	f->wait = EXITED;
	exit_checks(e, *f);
	TSAN_RELEASE(&e.exit_sync);
	to_scheduler(e);
	abort(); // an exited fiber is never resumed
}

static void start_fiber(Executor &e, Fiber &f) {
	if (f.stack == nullptr) {
		void *m = mmap(nullptr, kStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "fake CUDA: cannot map a %zu-byte fiber stack: %s\n", kStack, strerror(errno));
			abort();
		}
		mprotect(m, 4096, PROT_NONE); // a stack overflow faults instead of corrupting
		f.stack = (char *)m;
		e.nstacks++;
#ifdef EMU_TSAN
		f.tsan = __tsan_create_fiber(0);
#endif
	}
	char *top = f.stack + kStack;
#if defined(__x86_64__)
	uint64_t *s = (uint64_t *)(top - 88);
	memset(s, 0, 88);
	unsigned short cw;
	unsigned mx;
	asm volatile("fnstcw %0" : "=m"(cw));
	asm volatile("stmxcsr %0" : "=m"(mx));
	memcpy(&s[0], &cw, sizeof cw);
	memcpy(&s[1], &mx, sizeof mx);
	s[5] = (uint64_t)(uintptr_t)&f; // r12
	s[8] = (uint64_t)(uintptr_t)&emu_fiber_entry;
	f.sp = s;
#else
	getcontext(&f.uc);
	f.uc.uc_stack.ss_sp = f.stack + 4096;
	f.uc.uc_stack.ss_size = kStack - 4096;
	f.uc.uc_link = nullptr;
	makecontext(&f.uc, (void (*)())emu_fiber_main, 1, &f);
#endif
}

static void resume(Executor &e, Fiber &f) {
	e.cur = &f;
	threadIdx = f.tid;
	e.running.thread = f.tid;
#ifdef EMU_TSAN
	__tsan_switch_to_fiber(f.tsan, 1);
#endif
#if defined(__x86_64__)
	emu_swap(&e.sched_sp, f.sp);
#else
	swapcontext(&e.sched_uc, &f.uc);
#endif
	e.cur = nullptr;
}

// run_block runs block b of e.l to the end; false when it failed (e.error says why).
static bool run_block(Executor &e, uint3 b) {
	const Launch &l = *e.l;
	blockIdx = b;
	blockDim = l.block;
	gridDim = l.grid;
	e.running = Running{l.kernel, b, {}};
	e.n = l.block.x * l.block.y * l.block.z;
	e.exited = 0;
	e.bar_arrived = 0;
	e.qhead = e.qlen = 0;
	for (WarpOp &o : e.ops) o.used = false;
	while (e.nstacks < e.n) {
		e.fibers[e.nstacks].stack = nullptr;
		start_fiber(e, e.fibers[e.nstacks]);
	}
	for (unsigned i = 0; i < e.n; i++) {
		Fiber &f = e.fibers[i];
		f.idx = i;
		f.tid = uint3{i % l.block.x, (i / l.block.x) % l.block.y, i / (l.block.x * l.block.y)};
		f.wait = NONE;
		f.op = nullptr;
		start_fiber(e, f);
		push(e, i);
	}
	TSAN_RELEASE(&e.launch_sync);
	while (e.qlen > 0 && !e.failed) {
		unsigned i = e.runq[e.qhead];
		e.qhead = (e.qhead + 1) % kMaxThreads;
		e.qlen--;
		resume(e, e.fibers[i]);
	}
	if (!e.failed && e.exited < e.n) {
		e.failed = true;
		e.error = fmt("the block deadlocks: threads %s wait at __syncthreads, threads %s wait in warp operations, threads %s have exited",
			ranges(e, [](const Fiber &g) { return g.wait == AT_BARRIER; }).c_str(), ranges(e, [](const Fiber &g) { return g.wait == AT_WARP; }).c_str(),
			ranges(e, [](const Fiber &g) { return g.wait == EXITED; }).c_str());
	}
	TSAN_ACQUIRE(&e.exit_sync);
	threadIdx = uint3{};
	return !e.failed;
}

static Executor &executor() {
	if (!tl_exec) {
		tl_exec = std::make_unique<Executor>();
		for (Fiber &f : tl_exec->fibers) f.stack = nullptr;
#ifdef EMU_TSAN
		tl_exec->sched_tsan = __tsan_get_current_fiber();
#endif
	}
	ex = tl_exec.get();
	return *ex;
}

// ---- the pool ----

struct Job {
	size_t n;
	std::atomic<size_t> next{0};
	std::atomic<bool> stop{false};
	void (*item)(Job *j, size_t i);
	int running = 0; // workers inside drain (under the pool's lock)
};

static void drain(Job *j) {
	while (!j->stop.load(std::memory_order_relaxed)) {
		size_t i = j->next.fetch_add(1);
		if (i >= j->n) return;
		j->item(j, i);
	}
}

struct Pool {
	std::mutex mu;
	std::condition_variable work, done;
	std::deque<Job *> jobs;
	int size = 1;

	Pool() {
		size = (int)std::thread::hardware_concurrency();
		if (const char *s = getenv("FAKE_CUDA_THREADS")) size = atoi(s);
		if (size < 1) size = 1;
		if (size > 8 && !getenv("FAKE_CUDA_THREADS")) size = 8;
		for (int i = 1; i < size; i++) std::thread([this] { helper(); }).detach();
	}
	void helper() {
		std::unique_lock<std::mutex> lk(mu);
		for (;;) {
			work.wait(lk, [this] { return !jobs.empty(); });
			Job *j = jobs.front();
			j->running++;
			lk.unlock();
			drain(j);
			lk.lock();
			for (auto it = jobs.begin(); it != jobs.end(); ++it)
				if (*it == j) {
					jobs.erase(it);
					break;
				}
			if (--j->running == 0) done.notify_all();
		}
	}
	void run(Job *j) {
		if (size == 1 || j->n <= 1) {
			drain(j);
			return;
		}
		{
			std::lock_guard<std::mutex> lk(mu);
			jobs.push_back(j);
		}
		work.notify_all();
		drain(j);
		std::unique_lock<std::mutex> lk(mu);
		for (auto it = jobs.begin(); it != jobs.end(); ++it)
			if (*it == j) {
				jobs.erase(it);
				break;
			}
		done.wait(lk, [j] { return j->running == 0; });
	}
};

static Pool &pool() {
	static Pool *p = new Pool; // never destroyed: its threads live as long as the process
	return *p;
}

int workers() { return pool().size; }

struct GridJob : Job {
	const Launch *l;
	std::mutex mu;
	std::string error;
};

static void run_one_block(Job *j, size_t id) {
	GridJob &g = *static_cast<GridJob *>(j);
	Executor &e = executor();
	e.l = g.l;
	e.failed = false;
	e.error.clear();
	const dim3 &gd = g.l->grid;
	uint3 b{(unsigned)(id % gd.x), (unsigned)(id / gd.x % gd.y), (unsigned)(id / ((size_t)gd.x * gd.y))};
	if (!run_block(e, b)) {
		std::lock_guard<std::mutex> lk(g.mu);
		if (g.error.empty()) g.error = fmt("block %s: ", tname(b).c_str()) + e.error;
		g.stop = true;
	}
	e.l = nullptr;
}

std::string run(const Launch &l) {
	GridJob g;
	g.l = &l;
	g.n = (size_t)l.grid.x * l.grid.y * l.grid.z;
	g.item = run_one_block;
	pool().run(&g);
	return g.error;
}

struct ForJob : Job {
	void (*body)(size_t, void *);
	void *ctx;
};

void parallel_for(size_t n, void (*body)(size_t, void *), void *ctx) {
	ForJob j;
	j.n = n;
	j.body = body;
	j.ctx = ctx;
	j.item = [](Job *jj, size_t i) {
		ForJob &f = *static_cast<ForJob *>(jj);
		f.body(i, f.ctx);
	};
	pool().run(&j);
}

} // namespace emu
