// How a block runs on the CPU (the pool of OS threads that share out a grid's blocks is
// emu_pool.cc): the threads of one block run as fibers on one OS thread, in order, switching only
// where CUDA threads wait for each other. So a kernel without barriers costs a function call per
// CUDA thread, and __shared__ memory (thread_local) is the block's own.
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
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "kernel.h"

#ifdef EMU_TSAN
#include <sanitizer/tsan_interface.h>
#define TSAN_RELEASE(p) __tsan_release((void *)(p))
#define TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#else
#define TSAN_RELEASE(p) ((void)0)
#define TSAN_ACQUIRE(p) ((void)0)
#endif

#if !defined(__x86_64__) || defined(EMU_UCONTEXT)
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

// ---- contexts ----

// A context is a suspended execution: its stack pointer (x86-64: the callee-saved registers are
// pushed on its stack) or a ucontext elsewhere (and with -DEMU_UCONTEXT: slower, a system call
// per switch, but portable). make prepares a context that, when resumed,
// calls fn(arg) on the given stack; fn never returns.
#if defined(__x86_64__) && !defined(EMU_UCONTEXT)
struct Ctx {
	void *sp;
};
extern "C" void emu_swap(void **from, void *to);
extern "C" void emu_start();
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
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.size emu_swap, .-emu_swap
	.p2align 4
	.type emu_start,@function
emu_start:
	movq %r12, %rdi
	call *%r13
	ud2
	.size emu_start, .-emu_start
)");
// The kernels never change the SSE or x87 control words, so a switch need not carry them.
static inline void swap(Ctx *from, Ctx *to) { emu_swap(&from->sp, to->sp); }
static void make(Ctx *c, char *stack, size_t size, void (*fn)(void *), void *arg) {
	// Stacks are mapped a multiple of the page size apart, so their tops would share cache sets;
	// start each at its own offset (its "colour").
	size_t colour = ((uintptr_t)stack >> 12) % 61 * 64;
	// Seven words are popped on the first resume (six registers and the return address), so that
	// emu_start's call is made with rsp ≡ 0 (mod 16), as the ABI wants.
	uint64_t *s = (uint64_t *)(stack + size - 72 - colour);
	s[0] = s[1] = 0;                               // r15, r14
	s[2] = (uint64_t)(uintptr_t)fn;                // r13
	s[3] = (uint64_t)(uintptr_t)arg;               // r12
	s[4] = s[5] = 0;                               // rbx, rbp
	s[6] = (uint64_t)(uintptr_t)&emu_start;        // the return address
	c->sp = s;
}
#else
struct Ctx {
	ucontext_t uc;
};
static inline void swap(Ctx *from, Ctx *to) { swapcontext(&from->uc, &to->uc); }
static void make(Ctx *c, char *stack, size_t size, void (*fn)(void *), void *arg) {
	getcontext(&c->uc);
	c->uc.uc_stack.ss_sp = stack;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = nullptr;
	makecontext(&c->uc, (void (*)())fn, 1, arg);
}
#endif

// ---- block state ----

enum Wait { NONE, AT_BARRIER, AT_WARP, EXITED };

struct WarpOp;

// Fiber is one CUDA thread of the running block.
struct Fiber {
	unsigned idx; // linear thread index in the block
	uint3 tid;
	Wait wait;
	site at;          // where it waits
	bool suspended;   // it has waited at least once, so it owns the stack it runs on
	Ctx ctx;          // where it is suspended
	char *stack;      // the stack it owns while suspended
#ifdef EMU_TSAN
	void *tsan;
#endif
};

// WarpOp is a warp operation in progress: the lanes of mask meet, publish a value each and
// read the values they need.
struct WarpOp {
	warp_kind kind;
	unsigned mask, arrived, left; // left: lanes that have read the result
	site at;
	uint64_t vals[32];
	WarpOp *next; // in its warp's list, or the free list
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
	return a.line() == b.line() && a.column() == b.column() && (a.file_name() == b.file_name() || strcmp(a.file_name(), b.file_name()) == 0);
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

constexpr size_t kStack = 64 << 10;
constexpr unsigned kMaxThreads = 1024, kWarps = kMaxThreads / 32, kOps = 4 * kMaxThreads;
constexpr size_t kSlab = kMaxThreads + 2; // every thread waiting, and the schedulers' stacks

// Executor runs blocks on one OS thread.
//
// The block's threads start in order, each by a plain call of the kernel on the scheduler's
// stack, so a thread that never waits costs one call. A thread that waits keeps the stack it
// runs on (with the scheduler's frame below it) and the scheduler goes on on a fresh stack; a
// thread that is woken resumes there, and when it returns, into that stale scheduler frame,
// control goes back to the scheduler that resumed it and the stack is free again.
struct Executor {
	Fiber fibers[kMaxThreads];
	char *slab = nullptr;
	char *free[kSlab]; // stacks of the slab not in use by the running block
	size_t nstacks = 0, nfree = 0;
	Ctx native;    // run_block's caller
	Ctx loop;      // the scheduler, while it has resumed a thread
	char *loop_stack = nullptr;
	char *to_free = nullptr; // a stack the scheduler gets back when it runs again
	Fiber *cur = nullptr;
	const Launch *l = nullptr;
	unsigned n = 0, exited = 0, next = 0;
	dim3 tid_block{0, 0, 0}; // the block shape tids holds the thread indices of
	uint3 tids[kMaxThreads];
	unsigned runq[kMaxThreads];
	unsigned qhead = 0, qlen = 0;
	// the block barrier
	unsigned bar_arrived = 0;
	site bar_at;
	unsigned bar_first = 0;
	// warp operations in progress, per warp (a warp may have several over disjoint masks)
	WarpOp ops[kOps];
	WarpOp *warps[kWarps];
	WarpOp *free_ops = nullptr;
	bool failed = false;
	std::string error;
	Running running{};
	bool in_block = false, illegal = false;
	sigjmp_buf faulted; // where fault() ends a block
#ifdef EMU_TSAN
	void *native_tsan, *sched_tsan;
	char launch_sync, exit_sync, barrier_sync;
#endif

	~Executor() {
		if (slab) munmap(slab, kSlab * kStack);
	}
};

static thread_local std::unique_ptr<Executor> tl_exec;
static thread_local Executor *ex;

const Running *current() { return ex && ex->cur ? &ex->running : nullptr; }

void fault(const std::string &why) {
	Executor &e = *ex;
	e.failed = e.illegal = true;
	e.error = fmt("thread %s: ", tname(e.running.thread).c_str()) + why;
	siglongjmp(e.faulted, 1);
}

// Stacks come from one mapping per executor, side by side (each with a guard page below it):
// a block's threads switch among hundreds of them, and stacks close together keep that within
// the TLB and caches.
static char *get_stack(Executor &e) {
	if (e.nfree > 0) return e.free[--e.nfree];
	if (!e.slab) {
		void *m = mmap(nullptr, kSlab * kStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "fake CUDA: cannot map %zu bytes of stacks for a block's threads: %s\n", kSlab * kStack, strerror(errno));
			abort();
		}
		e.slab = (char *)m;
	}
	if (e.nstacks == kSlab) {
		fprintf(stderr, "fake CUDA: a block needs more than %zu stacks\n", kSlab);
		abort();
	}
	char *s = e.slab + e.nstacks++ * kStack;
	mprotect(s, 4096, PROT_NONE); // an overflow faults instead of corrupting the next stack
	return s;
}

static void push(Executor &e, unsigned i) { e.runq[(e.qhead + e.qlen++) % kMaxThreads] = i; }

static inline void tsan_to(void *fiber) {
#ifdef EMU_TSAN
	__tsan_switch_to_fiber(fiber, 1 /* only real waits order the threads */);
#else
	(void)fiber;
#endif
}

[[noreturn]] static void loop(void *arg);

// to_native ends the block: back to run_block (never to return here).
[[noreturn]] static void to_native(Executor &e) {
	Ctx dead;
	e.cur = nullptr;
#ifdef EMU_TSAN
	tsan_to(e.native_tsan);
#endif
	swap(&dead, &e.native);
	abort();
}

// fail records the block's failure and abandons it: no thread runs again (kernels hold no
// resources, so their stacks are simply reused by the next block).
[[noreturn]] static void fail(Executor &e, std::string msg) {
	if (!e.failed) {
		e.failed = true;
		e.error = std::move(msg);
	}
	to_native(e);
}

// park makes the running thread wait until another one wakes it.
static void park(Executor &e) {
	Fiber &f = *e.cur;
#ifdef EMU_TSAN
	tsan_to(e.sched_tsan);
#endif
	if (f.suspended) {
		// Straight on to the next thread woken (one switch per wait), else back to the
		// scheduler that resumed the chain.
		if (e.qlen > 0) {
			Fiber &g = e.fibers[e.runq[e.qhead]];
			e.qhead = (e.qhead + 1) % kMaxThreads;
			e.qlen--;
			e.cur = &g;
			threadIdx = g.tid;
			e.running.thread = g.tid;
#ifdef EMU_TSAN
			tsan_to(g.tsan);
#endif
			swap(&f.ctx, &g.ctx);
		} else {
			swap(&f.ctx, &e.loop);
		}
	} else {
		// It keeps the scheduler's stack; the scheduler goes on on a fresh one.
		f.suspended = true;
		f.stack = e.loop_stack;
		e.loop_stack = get_stack(e);
		Ctx fresh;
		make(&fresh, e.loop_stack, kStack, loop, &e);
		swap(&f.ctx, &fresh);
	}
	// resumed by the scheduler
}

static void wake(Executor &e, Fiber &f) {
	f.wait = NONE;
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
	return s.empty() ? "none" : s;
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
	// The lane joins the operation in progress at this call that names it. Other operations may
	// be in progress meanwhile, even over lanes of this one's mask (a __syncwarp waiting for
	// lanes busy in a shuffle of their own): a lane may do other warp operations first. At the
	// same call, though, a different mask is a disagreement CUDA does not allow.
	WarpOp *op = nullptr;
	for (WarpOp *o = e.warps[warp]; o; o = o->next) {
		if (o->arrived == o->mask || !(o->mask & bit) || (o->arrived & bit) || o->kind != kind || !same_site(o->at, at)) continue;
		if (o->mask != mask)
			fail(e, fmt("lanes of warp %u disagree: thread %s calls %s at %s with mask %#x, while lanes %#x wait there with mask %#x",
				warp, tname(f.tid).c_str(), kind_name(kind), where(at).c_str(), mask, o->arrived, o->mask));
		op = o;
		break;
	}
	if (!op) {
		if (unsigned gone = warp_exited(e, warp) & mask)
			fail(e, fmt("thread %s calls %s at %s with mask %#x, but lanes %#x of that mask have exited", tname(f.tid).c_str(), kind_name(kind), where(at).c_str(), mask, gone));
		if (!e.free_ops) fail(e, "too many warp operations in progress in one block");
		op = e.free_ops;
		e.free_ops = op->next;
		op->kind = kind;
		op->mask = mask;
		op->arrived = op->left = 0;
		op->at = at;
		op->next = e.warps[warp];
		e.warps[warp] = op;
	}
	op->vals[lane] = value;
	op->arrived |= bit;
	TSAN_RELEASE(op);
	if (op->arrived != mask) {
		f.wait = AT_WARP;
		f.at = at;
		park(e);
	} else {
		for (unsigned l = 0; l < 32; l++)
			if ((mask >> l & 1) && l != lane) wake(e, e.fibers[warp * 32 + l]);
	}
	TSAN_ACQUIRE(op);
	return op;
}

// leave is a lane's last look at op; the last lane to leave frees it.
static void leave(Executor &e, unsigned warp, WarpOp *op) {
	if (++op->left < (unsigned)__builtin_popcount(op->mask)) return;
	for (WarpOp **p = &e.warps[warp]; *p; p = &(*p)->next)
		if (*p == op) {
			*p = op->next;
			break;
		}
	op->next = e.free_ops;
	e.free_ops = op;
}

uint64_t warp_exchange(warp_kind kind, unsigned mask, uint64_t value, int src, const site &at) {
	Executor &e = *ex;
	Fiber &f = *e.cur;
	unsigned warp = f.idx / 32;
	WarpOp *op = join(e, kind, mask, value, at);
	uint64_t r = value;
	if (src >= 0 && kind != W_SYNC) {
		if (src > 31 || !(mask >> src & 1))
			fail(e, fmt("thread %s reads lane %d in %s at %s, but that lane is not in the mask %#x (its value is undefined on a GPU)",
				tname(f.tid).c_str(), src, kind_name(kind), where(at).c_str(), mask));
		r = op->vals[src];
	}
	leave(e, warp, op);
	return r;
}

unsigned warp_vote(warp_kind kind, unsigned mask, bool pred, const site &at) {
	Executor &e = *ex;
	unsigned warp = e.cur->idx / 32;
	WarpOp *op = join(e, kind, mask, pred, at);
	unsigned r = 0;
	for (unsigned l = 0; l < 32; l++)
		if ((mask >> l & 1) && op->vals[l]) r |= 1u << l;
	leave(e, warp, op);
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

// exit_checks fails the block when a thread that just exited leaves others waiting for it.
static void exit_checks(Executor &e, Fiber &f) {
	if (e.bar_arrived > 0)
		fail(e, fmt("thread %s exits while threads %s wait at __syncthreads at %s: every thread of a block must reach each __syncthreads",
			tname(f.tid).c_str(), ranges(e, [](const Fiber &g) { return g.wait == AT_BARRIER; }).c_str(), where(e.bar_at).c_str()));
	unsigned bit = 1u << (f.idx % 32);
	for (WarpOp *o = e.warps[f.idx / 32]; o; o = o->next)
		if (o->arrived != o->mask && (o->mask & bit))
			fail(e, fmt("thread %s exits while lanes %#x of its warp wait for it in %s at %s (mask %#x)", tname(f.tid).c_str(), o->arrived,
				kind_name(o->kind), where(o->at).c_str(), o->mask));
}

// start runs thread i from the beginning, on the scheduler's stack.
static void start(Executor &e, unsigned i) {
	Fiber &f = e.fibers[i];
	f.idx = i;
	f.tid = e.tids[i];
	f.wait = NONE;
	f.suspended = false;
	e.cur = &f;
	threadIdx = f.tid;
	e.running.thread = f.tid;
#ifdef EMU_TSAN
	// Under ThreadSanitizer every thread of a block runs on a stack of its own (the sanitizer
	// cannot be told to forget an earlier thread's accesses to reused stack memory): it takes
	// the scheduler's stack at once, and is resumed there by the scheduler on a fresh one.
	if (!f.tsan) f.tsan = __tsan_create_fiber(0);
	f.suspended = true;
	f.stack = e.loop_stack;
	e.loop_stack = get_stack(e);
	push(e, i);
	Ctx fresh;
	make(&fresh, e.loop_stack, kStack, loop, &e);
	swap(&f.ctx, &fresh);
	TSAN_ACQUIRE(&e.launch_sync);
#endif
	e.l->kernel->call(e.l->args);
	// The thread has exited; this frame is the scheduler's that started it.
	e.exited++;
	f.wait = EXITED;
	exit_checks(e, f);
	TSAN_RELEASE(&e.exit_sync);
#ifdef EMU_TSAN
	tsan_to(e.sched_tsan);
#endif
	e.cur = nullptr;
	if (f.suspended) {
		// A stale frame: the scheduler that resumed the thread is elsewhere; give it the stack
		// (not under ThreadSanitizer: see start).
#ifndef EMU_TSAN
		e.to_free = f.stack;
#endif
		Ctx dead;
		swap(&dead, &e.loop);
		abort();
	}
}

static void resume(Executor &e, Fiber &f) {
	e.cur = &f;
	threadIdx = f.tid;
	e.running.thread = f.tid;
#ifdef EMU_TSAN
	tsan_to(f.tsan);
#endif
	swap(&e.loop, &f.ctx);
	e.cur = nullptr;
	if (e.to_free) {
		e.free[e.nfree++] = e.to_free;
		e.to_free = nullptr;
	}
}

// loop schedules the block: woken threads first, then the next one not started, until all
// have exited (or the block deadlocks or fails); then it returns to run_block.
[[noreturn]] static void loop(void *arg) {
	Executor &e = *(Executor *)arg;
	for (;;) {
		if (e.qlen > 0) {
			unsigned i = e.runq[e.qhead];
			e.qhead = (e.qhead + 1) % kMaxThreads;
			e.qlen--;
			resume(e, e.fibers[i]);
		} else if (e.next < e.n) {
			start(e, e.next++);
		} else {
			if (e.exited < e.n)
				fail(e, fmt("the block deadlocks: threads %s wait at __syncthreads, threads %s wait in warp operations, threads %s have exited",
					ranges(e, [](const Fiber &g) { return g.wait == AT_BARRIER; }).c_str(), ranges(e, [](const Fiber &g) { return g.wait == AT_WARP; }).c_str(),
					ranges(e, [](const Fiber &g) { return g.wait == EXITED; }).c_str()));
			to_native(e);
		}
	}
}

// run_block runs block b of e.l to the end; false when it failed (e.error says why).
static bool run_block(Executor &e, uint3 b) {
	const Launch &l = *e.l;
	blockIdx = b;
	blockDim = l.block;
	gridDim = l.grid;
	e.running = Running{l.kernel, b, {}};
	e.n = l.block.x * l.block.y * l.block.z;
	if (e.tid_block.x != l.block.x || e.tid_block.y != l.block.y || e.tid_block.z != l.block.z) {
		e.tid_block = l.block;
		for (unsigned i = 0; i < e.n; i++) e.tids[i] = uint3{i % l.block.x, (i / l.block.x) % l.block.y, i / (l.block.x * l.block.y)};
	}
	e.exited = e.next = 0;
	for (unsigned i = 0; i < e.n; i++) e.fibers[i].wait = NONE;
	e.bar_arrived = 0;
	e.qhead = e.qlen = 0;
	e.failed = e.illegal = false;
	e.error.clear();
	for (WarpOp *&w : e.warps) w = nullptr;
	e.free_ops = nullptr;
	for (WarpOp &o : e.ops) {
		o.next = e.free_ops;
		e.free_ops = &o;
	}
	for (e.nfree = 0; e.nfree < e.nstacks; e.nfree++) e.free[e.nfree] = e.slab + e.nfree * kStack; // nothing of the last block lives on
	e.to_free = nullptr;
	e.loop_stack = get_stack(e);
	Ctx first;
	make(&first, e.loop_stack, kStack, loop, &e);
	TSAN_RELEASE(&e.launch_sync);
#ifdef EMU_TSAN
	tsan_to(e.sched_tsan);
#endif
	e.in_block = true;
	if (sigsetjmp(e.faulted, 1) == 0) swap(&e.native, &first);
	e.in_block = false;
	e.cur = nullptr;
	TSAN_ACQUIRE(&e.exit_sync);
	threadIdx = uint3{};
	return !e.failed;
}

static Executor &executor() {
	if (!tl_exec) {
		tl_exec = std::make_unique<Executor>();
#ifdef EMU_TSAN
		tl_exec->native_tsan = __tsan_get_current_fiber();
		tl_exec->sched_tsan = __tsan_create_fiber(0);
		for (Fiber &f : tl_exec->fibers) f.tsan = nullptr;
#endif
	}
	ex = tl_exec.get();
	return *ex;
}

// run_block runs block b of l on the calling OS thread; false with f filled when it failed.
bool run_block(const Launch &l, uint3 b, Failure *f) {
	Executor &e = executor();
	e.l = &l;
	bool ok = run_block(e, b);
	if (!ok) *f = Failure{fmt("block %s: ", tname(b).c_str()) + e.error, e.illegal};
	e.l = nullptr;
	return ok;
}

} // namespace emu
