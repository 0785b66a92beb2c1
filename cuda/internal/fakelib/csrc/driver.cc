// The fake libcuda.so.1: two emulated devices whose memory is the fake's own (memory.cc), whose
// streams run asynchronously (streams.cc), and whose modules are goaccel's kernels compiled for
// the CPU (modules.cc, emu/). This file has the call log, the errors, the fault handler, the
// devices, contexts and the memory calls. Every call is logged for the tests (fake_log), and
// calls are checked as the real driver checks them (contexts, handles, sizes).
//
// Environment: FAKE_CUDA_INIT_ERROR (cuInit's result), FAKE_CUDA_MEMORY (bytes per device),
// FAKE_CUDA_THREADS (OS threads running blocks), FAKE_CUDA_COVERAGE (a file that gets the name
// of each kernel on its first launch in the process), FAKE_CUDA_CAPTURE (a folder that gets the
// first launches of each kernel with the memory they were given, for the ThreadSanitizer replay).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <mutex>

#include "emu/kernel.h"
#include "fake.h"

namespace fake {

// ---- the log and errors ----

namespace {
std::mutex log_mu;
char logbuf[1 << 20];
size_t loglen;
int init_error = -1;
int launch_params;
int param_bytes = 8;
bool inited;

std::mutex err_mu;
std::map<int, const char *> details; // leaked strings: callers may still read an older one

thread_local int tl_device = -1;
} // namespace

void rec(const char *fmt, ...) {
	std::lock_guard<std::mutex> lk(log_mu);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(logbuf + loglen, sizeof logbuf - loglen - 1, fmt, ap);
	va_end(ap);
	if (n > 0 && loglen + n < sizeof logbuf - 2) {
		loglen += n;
		logbuf[loglen++] = '\n';
		logbuf[loglen] = 0;
	} else {
		logbuf[loglen] = 0;
	}
}

CUresult fail(CUresult code, const std::string &detail) {
	std::lock_guard<std::mutex> lk(err_mu);
	details[code] = strdup(detail.c_str());
	return code;
}

struct ErrorText {
	int code;
	const char *name, *text;
};
static const ErrorText error_texts[] = {
	{0, "CUDA_SUCCESS", "no error"},
	{1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	{2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	{3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
	{100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	{101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	{200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
	{201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
	{218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	{400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	{500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	{600, "CUDA_ERROR_NOT_READY", "device not ready"},
	{700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	{701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
	{719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
	{801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
};

const char *error_name(CUresult code) {
	for (const ErrorText &e : error_texts)
		if (e.code == code) return e.name;
	return nullptr;
}

int current_device() { return tl_device; }
bool initialized() { return inited; }
int logged_params() { return launch_params; }
int logged_param_bytes() { return param_bytes; }

// ---- crash reports ----

// A kernel that reads or writes past its memory faults (on a guard page, or outside the
// fake's memory). The handler ends the block, and the launch fails with the kernel, block,
// thread and address, as a GPU reports an illegal address; a fault in the fake's own products
// or collectives ends the process with such a message, and a fault anywhere else goes to the
// handler that was there before (the Go runtime's).
namespace {
struct sigaction old_segv, old_bus, old_fpe;
thread_local const char *tl_activity;

void say(const char *s) {
	ssize_t r = write(2, s, strlen(s));
	(void)r;
}

void on_fault(int sig, siginfo_t *info, void *uc) {
	const emu::Running *run = emu::current();
	if (!run && !tl_activity) {
		struct sigaction &old = sig == SIGSEGV ? old_segv : sig == SIGBUS ? old_bus : old_fpe;
		if (old.sa_flags & SA_SIGINFO) {
			if (old.sa_sigaction) return old.sa_sigaction(sig, info, uc);
		} else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
			return old.sa_handler(sig);
		}
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	char buf[512];
	if (sig == SIGFPE) {
		snprintf(buf, sizeof buf, "an arithmetic fault (an integer division by zero) at %p", info->si_addr);
	} else {
		std::string where = describe((uintptr_t)info->si_addr);
		snprintf(buf, sizeof buf, "an access at %p%s%s", info->si_addr, where.empty() ? "" : ", ", where.c_str());
	}
	if (run) emu::fault(buf); // the launch fails with it; this thread goes on with the next block
	say("\nfake CUDA: ");
	say(tl_activity);
	say(": ");
	say(buf);
	say("\n");
	_exit(86);
}

void install_fault_handler() {
	static std::once_flag once;
	std::call_once(once, [] {
		struct sigaction sa = {};
		sa.sa_sigaction = on_fault;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, &old_segv);
		sigaction(SIGBUS, &sa, &old_bus);
		sigaction(SIGFPE, &sa, &old_fpe);
	});
}
} // namespace

Activity::Activity(const char *what) { tl_activity = what; }
Activity::~Activity() { tl_activity = nullptr; }

} // namespace fake

using namespace fake;

// ---- test hooks ----

API const char *fake_log(void) { return logbuf; }
API void fake_reset(void) {
	std::lock_guard<std::mutex> lk(log_mu);
	loglen = 0;
	logbuf[0] = 0;
}
API void fake_set_init_error(int code) { init_error = code; }
API void fake_set_launch_params(int n) { launch_params = n; }
API void fake_set_param_bytes(int n) { param_bytes = n; }

// ---- initialisation, devices, contexts ----

API CUresult cuInit(unsigned flags) {
	rec("cuInit flags=%u", flags);
	if (init_error < 0) {
		const char *e = getenv("FAKE_CUDA_INIT_ERROR");
		init_error = e ? atoi(e) : 0;
	}
	if (flags != 0) return fail(INVALID_VALUE, "cuInit flags must be 0");
	if (init_error == 0) {
		inited = true;
		install_fault_handler();
	}
	return init_error;
}
API CUresult cuDriverGetVersion(int *v) {
	*v = 13000;
	return OK;
}
API CUresult cuGetErrorName(CUresult r, const char **s) {
	const char *n = error_name(r);
	if (!n) return INVALID_VALUE;
	*s = n;
	return OK;
}
API CUresult cuGetErrorString(CUresult r, const char **s) {
	const char *text = nullptr;
	for (const ErrorText &e : error_texts)
		if (e.code == r) text = e.text;
	if (!text) return INVALID_VALUE;
	std::lock_guard<std::mutex> lk(err_mu);
	auto it = details.find(r);
	if (it == details.end()) {
		*s = text;
		return OK;
	}
	std::string full = std::string(text) + ": " + it->second;
	*s = strdup(full.c_str()); // leaked, as the driver's strings live forever
	return OK;
}

// Device handles are 10 + the ordinal, contexts 0xc0 + the handle: distinct from ordinals, so
// that a binding that passes one for the other fails.
static int device_of_handle(int h) { return h >= 10 && h < 10 + device_count() ? h - 10 : -1; }

int fake::device_count() {
	static int n = [] {
		const char *s = getenv("FAKE_CUDA_DEVICES");
		if (!s || !*s) return 2;
		char *end;
		long v = strtol(s, &end, 10);
		if (*end || v < 1 || v > kMaxDevices) {
			fprintf(stderr, "fakecuda: FAKE_CUDA_DEVICES=%s: want a number of devices from 1 to %d\n", s, kMaxDevices);
			abort();
		}
		return (int)v;
	}();
	return n;
}

API CUresult cuDeviceGetCount(int *n) {
	NEED_INIT;
	*n = device_count();
	return OK;
}
API CUresult cuDeviceGet(int *d, int i) {
	rec("cuDeviceGet %d", i);
	NEED_INIT;
	if (i < 0 || i >= device_count()) return fail(INVALID_DEVICE, "device ordinal " + std::to_string(i));
	*d = 10 + i;
	return OK;
}
API CUresult cuDeviceGetName(char *name, int len, int dev) {
	NEED_INIT;
	int i = device_of_handle(dev);
	if (i < 0) return fail(INVALID_DEVICE, "not a device handle");
	snprintf(name, len, "Emulated GPU %d", i);
	return OK;
}
API CUresult cuDeviceTotalMem_v2(size_t *n, int dev) {
	NEED_INIT;
	if (device_of_handle(dev) < 0) return fail(INVALID_DEVICE, "not a device handle");
	*n = capacity();
	return OK;
}
API CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
	NEED_INIT;
	if (device_of_handle(dev) < 0) return fail(INVALID_DEVICE, "not a device handle");
	switch (attr) {
	case 1: *v = 1024; break;                 // max threads per block
	case 2: case 3: *v = 1024; break;         // max block x, y
	case 4: *v = 64; break;                   // max block z
	case 5: *v = 0x7fffffff; break;           // max grid x
	case 6: case 7: *v = 65535; break;        // max grid y, z
	case 8: *v = 48 << 10; break;             // shared memory per block
	case 10: *v = 32; break;                  // warp size
	case 16: *v = 132; break;                 // multiprocessors
	case 75: *v = 9; break;                   // compute capability
	case 76: *v = 0; break;
	default: *v = 0;
	}
	return OK;
}
API CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) {
	rec("cuDevicePrimaryCtxRetain %d", dev);
	NEED_INIT;
	if (device_of_handle(dev) < 0) return fail(INVALID_DEVICE, "not a device handle");
	*ctx = (void *)(uintptr_t)(0xc0 + dev);
	return OK;
}
API CUresult cuDevicePrimaryCtxRelease_v2(int dev) {
	NEED_INIT;
	return device_of_handle(dev) < 0 ? fail(INVALID_DEVICE, "not a device handle") : OK;
}
API CUresult cuDevicePrimaryCtxRelease(int dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
API CUresult cuCtxSetCurrent(void *ctx) {
	NEED_INIT;
	if (ctx == nullptr) {
		tl_device = -1;
		return OK;
	}
	int i = device_of_handle((int)((uintptr_t)ctx - 0xc0));
	if (i < 0) return fail(INVALID_CONTEXT, "not a context (cuDevicePrimaryCtxRetain returns them)");
	tl_device = i;
	return OK;
}
API CUresult cuCtxSynchronize(void) {
	NEED_INIT;
	if (tl_device < 0) return fail(INVALID_CONTEXT, "cuCtxSynchronize without a current context");
	return sync_device(tl_device);
}

// ---- memory ----

API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	rec("cuMemAlloc_v2 %zu", n);
	NEED_CONTEXT("cuMemAlloc");
	uintptr_t a;
	CUresult r = mem_alloc(n, tl_device, &a);
	if (r == OK) *p = a;
	return r;
}
API CUresult cuMemFree_v2(CUdeviceptr p) {
	rec("cuMemFree_v2");
	NEED_CONTEXT("cuMemFree");
	if (p == 0) return OK;
	sync_all(); // the block may still be in use by queued work
	return mem_free(p);
}
API CUresult cuMemGetInfo_v2(size_t *free_, size_t *total) {
	NEED_CONTEXT("cuMemGetInfo");
	*total = capacity();
	*free_ = capacity() - used(tl_device);
	return OK;
}

// device_range checks that [p, p+n) is device memory for a copy or memset.
static CUresult device_range(const char *call, uintptr_t p, size_t n) {
	std::string why;
	if (n == 0 || in_device(p, n, nullptr, &why)) return OK;
	return fail(INVALID_VALUE, std::string(call) + ": " + why);
}

API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *hs) {
	rec("cuMemcpyHtoDAsync_v2 %zu", n);
	NEED_CONTEXT("cuMemcpyHtoDAsync");
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	if ((r = device_range("cuMemcpyHtoDAsync", dst, n)) != OK) return r;
	// From pageable memory the driver stages the bytes before returning.
	auto staged = std::make_shared<std::vector<char>>((const char *)src, (const char *)src + n);
	enqueue(s, [dst, staged](std::string *) {
		if (sticky() == OK) memcpy((void *)(uintptr_t)dst, staged->data(), staged->size());
		return OK;
	});
	return OK;
}
API CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *hs) {
	rec("cuMemcpyDtoHAsync_v2 %zu", n);
	NEED_CONTEXT("cuMemcpyDtoHAsync");
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	if ((r = device_range("cuMemcpyDtoHAsync", src, n)) != OK) return r;
	// Into pageable memory the copy completes before the call returns.
	uint64_t seq = enqueue(s, [dst, src, n](std::string *) {
		if (sticky() == OK) memcpy(dst, (const void *)(uintptr_t)src, n);
		return OK;
	});
	return wait(s, seq);
}
API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *hs) {
	rec("cuMemcpyDtoDAsync_v2 %zu", n);
	NEED_CONTEXT("cuMemcpyDtoDAsync");
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	if ((r = device_range("cuMemcpyDtoDAsync (destination)", dst, n)) != OK || (r = device_range("cuMemcpyDtoDAsync (source)", src, n)) != OK) return r;
	enqueue(s, [dst, src, n](std::string *) {
		if (sticky() == OK) memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
		return OK;
	});
	return OK;
}

template <typename T> static CUresult memset_async(const char *call, CUdeviceptr p, T v, size_t n, void *hs) {
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	if (p % sizeof(T) != 0) return fail(INVALID_VALUE, std::string(call) + ": the address is not aligned to the word size");
	if ((r = device_range(call, p, n * sizeof(T))) != OK) return r;
	enqueue(s, [p, v, n](std::string *) {
		if (sticky() == OK)
			for (size_t i = 0; i < n; i++) ((T *)(uintptr_t)p)[i] = v;
		return OK;
	});
	return OK;
}
API CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, void *hs) {
	rec("cuMemsetD16Async %hu %zu", v, n);
	NEED_CONTEXT("cuMemsetD16Async");
	return memset_async<uint16_t>("cuMemsetD16Async", p, v, n, hs);
}
API CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, void *hs) {
	rec("cuMemsetD32Async %u %zu", v, n);
	NEED_CONTEXT("cuMemsetD32Async");
	return memset_async<uint32_t>("cuMemsetD32Async", p, v, n, hs);
}
