// Streams and events of the emulated devices. A stream is a queue run by a thread of its own,
// so work really is asynchronous: a kernel, a copy or a collective queued on a stream runs after
// the call that queued it has returned, in the order queued, while other streams run theirs.
// Events order streams: cuEventRecord marks a point in a stream's queue, cuStreamWaitEvent makes
// another stream wait for that point. A failed operation leaves a sticky error that every later
// call returns, as a faulting kernel leaves a CUDA context unusable.
#include <stdio.h>
#include <time.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

#include "fake.h"

namespace fake {

struct Stream {
	int device;
	std::mutex mu;
	std::condition_variable cv;
	std::deque<std::pair<uint64_t, Op>> q;
	uint64_t queued = 0, done = 0;
	bool destroyed = false;
};

struct Event {
	bool timed;
	std::mutex mu;
	std::condition_variable cv;
	uint64_t recorded = 0, completed = 0;
	double ms = 0; // when the last record completed
	int refs = 1;  // the handle and each queued operation that uses it
	bool destroyed = false;
};

namespace {
std::mutex reg_mu; // guards streams, events and the default streams
std::set<Stream *> streams;
std::set<Event *> events;
Stream *defaults[kMaxDevices];

std::mutex sticky_mu;
CUresult sticky_code = OK;

double now_ms() {
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void set_sticky(CUresult code, const std::string &detail) {
	std::lock_guard<std::mutex> lk(sticky_mu);
	if (sticky_code == OK) {
		sticky_code = code;
		fail(code, detail);
		fprintf(stderr, "fake CUDA: %s: %s\n", error_name(code), detail.c_str());
	}
}

void run(Stream *s) {
	std::unique_lock<std::mutex> lk(s->mu);
	for (;;) {
		s->cv.wait(lk, [s] { return !s->q.empty() || s->destroyed; });
		if (s->q.empty()) break;
		auto [seq, op] = std::move(s->q.front());
		s->q.pop_front();
		lk.unlock();
		std::string detail;
		if (CUresult r = op(&detail); r != OK) set_sticky(r, detail);
		op = nullptr;
		lk.lock();
		s->done = seq;
		s->cv.notify_all();
	}
	lk.unlock();
	delete s;
}

Stream *create(int device) {
	Stream *s = new Stream;
	s->device = device;
	std::thread(run, s).detach();
	streams.insert(s);
	return s;
}

void release(Event *e) {
	std::unique_lock<std::mutex> lk(e->mu);
	if (--e->refs > 0) return;
	lk.unlock();
	delete e;
}
} // namespace

CUresult sticky() {
	std::lock_guard<std::mutex> lk(sticky_mu);
	return sticky_code;
}

int stream_device(Stream *s) { return s->device; }

Stream *stream_of(uintptr_t handle, CUresult *err) {
	std::lock_guard<std::mutex> lk(reg_mu);
	if (handle == 0 || handle == 1 || handle == 2) { // the legacy and per-thread default streams
		int d = current_device();
		if (d < 0) {
			*err = fail(INVALID_CONTEXT, "the default stream needs a current context (cuCtxSetCurrent)");
			return nullptr;
		}
		if (!defaults[d]) defaults[d] = create(d);
		return defaults[d];
	}
	Stream *s = (Stream *)handle;
	if (!streams.count(s)) {
		char buf[96];
		snprintf(buf, sizeof buf, "%#lx is not a stream (cuStreamCreate returns them)", (unsigned long)handle);
		*err = fail(INVALID_HANDLE, buf);
		return nullptr;
	}
	int d = current_device();
	if (d != s->device) {
		*err = fail(INVALID_HANDLE, "a stream of cuda:" + std::to_string(s->device) + " used with cuda:" + std::to_string(d) + " current");
		return nullptr;
	}
	*err = OK;
	return s;
}

// kMaxQueued bounds a stream's queue: as on a GPU, a call that would queue more waits until
// the stream has run some, so a program cannot run arbitrarily far ahead of its device.
constexpr size_t kMaxQueued = 1024;

uint64_t enqueue(Stream *s, Op op) {
	std::unique_lock<std::mutex> lk(s->mu);
	s->cv.wait(lk, [s] { return s->q.size() < kMaxQueued; });
	uint64_t seq = ++s->queued;
	s->q.emplace_back(seq, std::move(op));
	s->cv.notify_all();
	return seq;
}

CUresult wait(Stream *s, uint64_t seq) {
	std::unique_lock<std::mutex> lk(s->mu);
	if (seq == 0) seq = s->queued;
	s->cv.wait(lk, [s, seq] { return s->done >= seq; });
	lk.unlock();
	return sticky();
}

CUresult sync_device(int device) {
	std::vector<std::pair<Stream *, uint64_t>> all;
	{
		std::lock_guard<std::mutex> lk(reg_mu);
		for (Stream *s : streams)
			if (s->device == device || device < 0) {
				std::lock_guard<std::mutex> sl(s->mu);
				all.emplace_back(s, s->queued);
			}
	}
	for (auto [s, seq] : all) wait(s, seq);
	return sticky();
}

CUresult sync_all() { return sync_device(-1); }

} // namespace fake

using namespace fake;

API CUresult cuStreamCreate(void **out, unsigned flags) {
	rec("cuStreamCreate flags=%u", flags);
	int d = current_device();
	if (d < 0) return fail(INVALID_CONTEXT, "cuStreamCreate without a current context");
	std::lock_guard<std::mutex> lk(reg_mu);
	*out = create(d);
	return OK;
}

API CUresult cuStreamSynchronize(void *h) {
	rec("cuStreamSynchronize");
	CUresult r;
	Stream *s = stream_of((uintptr_t)h, &r);
	if (!s) return r;
	return wait(s, 0);
}

API CUresult cuStreamDestroy_v2(void *h) {
	if (h == nullptr) return fail(INVALID_HANDLE, "cuStreamDestroy of the default stream");
	CUresult r;
	Stream *s = stream_of((uintptr_t)h, &r);
	if (!s) return r;
	{
		std::lock_guard<std::mutex> lk(reg_mu);
		streams.erase(s);
	}
	std::lock_guard<std::mutex> lk(s->mu);
	s->destroyed = true; // its thread runs what is queued, then frees it
	s->cv.notify_all();
	return OK;
}

static Event *event_of(void *h, CUresult *err) {
	std::lock_guard<std::mutex> lk(reg_mu);
	Event *e = (Event *)h;
	if (!events.count(e)) {
		*err = fail(INVALID_HANDLE, "not an event (cuEventCreate returns them)");
		return nullptr;
	}
	*err = OK;
	return e;
}

API CUresult cuEventCreate(void **out, unsigned flags) {
	if (current_device() < 0) return fail(INVALID_CONTEXT, "cuEventCreate without a current context");
	Event *e = new Event;
	e->timed = !(flags & 2); // CU_EVENT_DISABLE_TIMING
	std::lock_guard<std::mutex> lk(reg_mu);
	events.insert(e);
	*out = e;
	return OK;
}

API CUresult cuEventRecord(void *he, void *hs) {
	CUresult r;
	Event *e = event_of(he, &r);
	if (!e) return r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	uint64_t k;
	{
		std::lock_guard<std::mutex> lk(e->mu);
		k = ++e->recorded;
		e->refs++;
	}
	enqueue(s, [e, k](std::string *) { // it holds a reference to e until it ran
		{
			std::lock_guard<std::mutex> lk(e->mu);
			if (e->completed < k) e->completed = k;
			e->ms = now_ms();
			e->cv.notify_all();
		}
		release(e);
		return OK;
	});
	return sticky();
}

API CUresult cuStreamWaitEvent(void *hs, void *he, unsigned flags) {
	CUresult r;
	Event *e = event_of(he, &r);
	if (!e) return r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	uint64_t k;
	{
		std::lock_guard<std::mutex> lk(e->mu);
		k = e->recorded;
		if (e->completed >= k) return sticky(); // nothing to wait for
		e->refs++;
	}
	enqueue(s, [e, k](std::string *) {
		{
			std::unique_lock<std::mutex> lk(e->mu);
			e->cv.wait(lk, [e, k] { return e->completed >= k; });
		}
		release(e);
		return OK;
	});
	return sticky();
}

API CUresult cuEventSynchronize(void *he) {
	CUresult r;
	Event *e = event_of(he, &r);
	if (!e) return r;
	std::unique_lock<std::mutex> lk(e->mu);
	uint64_t k = e->recorded;
	e->cv.wait(lk, [e, k] { return e->completed >= k; });
	lk.unlock();
	return sticky();
}

API CUresult cuEventElapsedTime_v2(float *ms, void *ha, void *hb) {
	CUresult r;
	Event *a = event_of(ha, &r), *b = a ? event_of(hb, &r) : nullptr;
	if (!b) return r;
	if (!a->timed || !b->timed) return fail(INVALID_HANDLE, "cuEventElapsedTime of an event created with CU_EVENT_DISABLE_TIMING");
	std::scoped_lock lk(a->mu, b->mu);
	if (a->recorded == 0 || b->recorded == 0) return fail(INVALID_HANDLE, "cuEventElapsedTime of an event never recorded");
	if (a->completed < a->recorded || b->completed < b->recorded) return 600; // CUDA_ERROR_NOT_READY
	*ms = (float)(b->ms - a->ms);
	return OK;
}

API CUresult cuEventElapsedTime(float *ms, void *a, void *b) { return cuEventElapsedTime_v2(ms, a, b); }

API CUresult cuEventDestroy_v2(void *he) {
	CUresult r;
	Event *e = event_of(he, &r);
	if (!e) return r;
	{
		std::lock_guard<std::mutex> lk(reg_mu);
		events.erase(e);
	}
	release(e); // queued operations that use it keep it until they ran
	return OK;
}
