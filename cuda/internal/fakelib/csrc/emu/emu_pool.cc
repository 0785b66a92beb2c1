// The pool of OS threads that run blocks: a launch's blocks (and the fake cuBLAS's panels) are
// shared out to FAKE_CUDA_THREADS threads (default the CPUs, at most 8), the caller among them.
#include <stdlib.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "kernel.h"

namespace emu {

// run_block runs block b of l on the calling OS thread (emu_blocks.cc).
bool run_block(const Launch &l, uint3 b, Failure *f);

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
	Failure failure;
};

static void run_one_block(Job *j, size_t id) {
	GridJob &g = *static_cast<GridJob *>(j);
	const dim3 &gd = g.l->grid;
	uint3 b{(unsigned)(id % gd.x), (unsigned)(id / gd.x % gd.y), (unsigned)(id / ((size_t)gd.x * gd.y))};
	Failure f;
	if (!run_block(*g.l, b, &f)) {
		std::lock_guard<std::mutex> lk(g.mu);
		if (g.failure.error.empty()) g.failure = f;
		g.stop = true;
	}
}

Failure run(const Launch &l) {
	GridJob g;
	g.l = &l;
	g.n = (size_t)l.grid.x * l.grid.y * l.grid.z;
	g.item = run_one_block;
	pool().run(&g);
	return g.failure;
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
