// The fake libcuda.so.1: two emulated devices whose memory is the fake's own (memory.cc), whose
// streams run asynchronously (streams.cc), and whose modules are goaccel's kernels compiled for
// the CPU (emu/): cuModuleLoadDataEx reads the PTX's entries, cuModuleGetFunction finds the
// compiled kernel of an entry, and cuLaunchKernel copies each parameter with the size the PTX
// declares and runs the grid on the CPU. Every call is logged for the tests (fake_log), and
// calls are checked as the real driver checks them (contexts, handles, sizes, launch limits).
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
#include <set>

#include "capture.h"
#include "emu/kernel.h"
#include "fake.h"
#include "ptx.h"

namespace fake {

// ---- the log and errors ----

namespace {
std::mutex log_mu;
char logbuf[1 << 20];
size_t loglen;
int init_error = -1;
int launch_params;
int param_bytes = 8;
bool initialized;

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

#define NEED_INIT \
	if (!initialized) return fail(NOT_INITIALIZED, "cuInit was not called")

API CUresult cuInit(unsigned flags) {
	rec("cuInit flags=%u", flags);
	if (init_error < 0) {
		const char *e = getenv("FAKE_CUDA_INIT_ERROR");
		init_error = e ? atoi(e) : 0;
	}
	if (flags != 0) return fail(INVALID_VALUE, "cuInit flags must be 0");
	if (init_error == 0) {
		initialized = true;
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
static int device_of_handle(int h) { return h >= 10 && h < 10 + kDevices ? h - 10 : -1; }

API CUresult cuDeviceGetCount(int *n) {
	NEED_INIT;
	*n = kDevices;
	return OK;
}
API CUresult cuDeviceGet(int *d, int i) {
	rec("cuDeviceGet %d", i);
	NEED_INIT;
	if (i < 0 || i >= kDevices) return fail(INVALID_DEVICE, "device ordinal " + std::to_string(i));
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

#define NEED_CONTEXT(call)                  \
	NEED_INIT;                              \
	if (tl_device < 0) return fail(INVALID_CONTEXT, call " without a current context (cuCtxSetCurrent)"); \
	if (CUresult st = sticky(); st != OK) return st

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

// ---- modules, functions, launches ----

namespace {
struct Function {
	std::string name;
	emu::Kernel *kernel;
	std::vector<emu::Param> params; // the PTX's
};
struct Module {
	std::vector<Entry> entries;
	std::map<std::string, Function *> fns;
};
std::mutex mod_mu;
std::set<Module *> modules;
std::set<Function *> functions;

// coverage appends a kernel's name to FAKE_CUDA_COVERAGE on its first launch in this process.
void coverage(const emu::Kernel *k) {
	static const char *path = getenv("FAKE_CUDA_COVERAGE");
	if (!path || !*path) return;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0) return;
	std::string line = std::string(k->name) + "\n";
	ssize_t r = write(fd, line.data(), line.size());
	(void)r;
	close(fd);
}
} // namespace

static CUresult load(void **m, const void *image, unsigned n, int *opts, void **vals) {
	NEED_CONTEXT("cuModuleLoadData");
	const char *ptx = (const char *)image;
	auto mod = std::make_unique<Module>();
	std::string err;
	if (!parse_ptx(ptx, &mod->entries, &err)) {
		for (unsigned i = 0; i < n; i++)
			if (opts[i] == 5) { // CU_JIT_ERROR_LOG_BUFFER, sized by option 6
				size_t size = 0;
				for (unsigned j = 0; j < n; j++)
					if (opts[j] == 6) size = (size_t)(uintptr_t)vals[j];
				if (size > 0) snprintf((char *)vals[i], size, "%s", err.c_str());
			}
		return fail(INVALID_PTX, err);
	}
	std::lock_guard<std::mutex> lk(mod_mu);
	*m = mod.get();
	modules.insert(mod.release());
	return OK;
}

API CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals) {
	rec("cuModuleLoadDataEx bytes=%zu options=%u first=%d", strlen((const char *)image), n, n ? opts[0] : -1);
	return load(m, image, n, opts, vals);
}
API CUresult cuModuleLoadData(void **m, const void *image) { return load(m, image, 0, nullptr, nullptr); }

API CUresult cuModuleUnload(void *hm) {
	NEED_INIT;
	std::lock_guard<std::mutex> lk(mod_mu);
	Module *m = (Module *)hm;
	if (!modules.erase(m)) return fail(INVALID_HANDLE, "not a module");
	for (auto &[name, f] : m->fns) functions.erase(f); // functions stay allocated: handles may linger
	delete m;
	return OK;
}

API CUresult cuModuleGetFunction(void **out, void *hm, const char *name) {
	NEED_INIT;
	std::lock_guard<std::mutex> lk(mod_mu);
	Module *m = (Module *)hm;
	if (!modules.count(m)) return fail(INVALID_HANDLE, "not a module (cuModuleLoadData returns them)");
	if (auto it = m->fns.find(name); it != m->fns.end()) {
		*out = it->second;
		return OK;
	}
	const Entry *e = nullptr;
	for (const Entry &x : m->entries)
		if (x.name == name) e = &x;
	if (!e) return fail(NOT_FOUND, std::string("the module has no kernel ") + name);
	emu::Kernel *k = emu::find_kernel(name);
	if (!k)
		return fail(NOT_FOUND, std::string("the emulator has no compiled code for kernel ") + name +
			" (it runs the kernel sources it was built from: rebuild it, and `make ptx` if the PTX is stale)");
	if (k->params.size() != e->params.size())
		return fail(INVALID_IMAGE, std::string(name) + ": the PTX declares " + std::to_string(e->params.size()) + " parameters, the sources " +
			std::to_string(k->params.size()) + " (is the PTX stale? `make ptx`)");
	for (size_t i = 0; i < k->params.size(); i++)
		if (k->params[i].size != e->params[i].size)
			return fail(INVALID_IMAGE, std::string(name) + ": parameter " + std::to_string(i) + " has " + std::to_string(e->params[i].size) +
				" bytes in the PTX and " + std::to_string(k->params[i].size) + " in the sources (is the PTX stale? `make ptx`)");
	Function *f = new Function{name, k, e->params};
	m->fns[name] = f;
	functions.insert(f);
	*out = f;
	return OK;
}

// check_pointers finds the allocations a launch's pointer parameters point into; a pointer
// that is neither null nor memory of the launch's device fails the launch, as the first access
// would on a GPU.
static std::string check_pointers(const Function &f, void *const *args, int device, std::vector<Block> *blocks) {
	for (size_t i = 0; i < f.params.size(); i++) {
		if (!f.kernel->params[i].pointer) continue;
		uintptr_t p = *(const uintptr_t *)args[i];
		if (p == 0) continue;
		Block b;
		// An empty operand may sit at the very end of its allocation.
		if (!lookup(p, &b) && !(lookup(p - 1, &b) && p == b.base + b.size)) {
			char buf[256];
			snprintf(buf, sizeof buf, "parameter %zu (a pointer) is %#lx, which is not device memory (a host address, or freed memory?)", i, (unsigned long)p);
			return buf;
		}
		if (b.device != device)
			return "parameter " + std::to_string(i) + " points into memory of cuda:" + std::to_string(b.device) + ", but the kernel runs on cuda:" + std::to_string(device);
		blocks->push_back(b);
	}
	return "";
}

API CUresult cuLaunchKernel(void *hf, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, void *hs,
	void **params, void **extra) {
	Function *f;
	{
		std::lock_guard<std::mutex> lk(mod_mu);
		f = (Function *)hf;
		if (!functions.count(f)) return fail(INVALID_HANDLE, "not a function (cuModuleGetFunction returns them)");
	}
	char buf[8192];
	int len = snprintf(buf, sizeof buf, "cuLaunchKernel %s grid=%u,%u,%u block=%u,%u,%u shared=%u", f->name.c_str(), gx, gy, gz, bx, by, bz, shared);
	for (int i = 0; params && i < launch_params && i < (int)f->params.size() && len < (int)sizeof buf - 32; i++) {
		if (param_bytes == 8) {
			unsigned long long w = 0;
			memcpy(&w, params[i], f->params[i].size < 8 ? f->params[i].size : 8);
			len += snprintf(buf + len, sizeof buf - len, " p%d=%llx", i, w);
			continue;
		}
		// param_bytes/8 little-endian 64-bit words, in decimal (Shape and View structs)
		len += snprintf(buf + len, sizeof buf - len, " p%d=", i);
		for (int w = 0; w < param_bytes / 8 && (size_t)(w * 8) < f->params[i].size && len < (int)sizeof buf - 32; w++)
			len += snprintf(buf + len, sizeof buf - len, "%s%lld", w ? "," : "", ((long long *)params[i])[w]);
	}
	rec("%s", buf);
	NEED_CONTEXT("cuLaunchKernel");
	CUresult r;
	Stream *s = stream_of((uintptr_t)hs, &r);
	if (!s) return r;
	if (extra) return fail(NOT_SUPPORTED, "kernel parameters through `extra` (the fake reads kernelParams)");
	if (!params && !f->params.empty()) return fail(INVALID_VALUE, f->name + " has parameters, but kernelParams is null");
	if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0 || gx > 0x7fffffffu || gy > 65535 || gz > 65535)
		return fail(INVALID_VALUE, f->name + ": a grid or block dimension is 0 or above the device's limits");
	if (bx > 1024 || by > 1024 || bz > 64 || (size_t)bx * by * bz > 1024)
		return fail(INVALID_VALUE, f->name + ": a block of " + std::to_string((size_t)bx * by * bz) + " threads (" + std::to_string(bx) + "×" +
			std::to_string(by) + "×" + std::to_string(bz) + "); the device allows 1024");
	if (shared > (48u << 10)) return fail(INVALID_VALUE, f->name + ": " + std::to_string(shared) + " bytes of dynamic shared memory; the device allows 49152");
	// Copy each parameter as the driver does: the size the PTX declares, from its pointer.
	struct Args {
		std::vector<unsigned char> bytes;
		std::vector<void *> ptrs;
	};
	auto a = std::make_shared<Args>();
	std::vector<size_t> offs;
	size_t total = 0;
	for (const emu::Param &p : f->params) {
		total = (total + 15) / 16 * 16;
		offs.push_back(total);
		total += p.size;
	}
	a->bytes.resize(total + 16);
	for (size_t i = 0; i < f->params.size(); i++) {
		memcpy(a->bytes.data() + offs[i], params[i], f->params[i].size);
		a->ptrs.push_back(a->bytes.data() + offs[i]);
	}
	emu::Launch l{f->kernel, dim3(gx, gy, gz), dim3(bx, by, bz), a->ptrs.data()};
	int device = stream_device(s);
	Function *fn = f;
	enqueue(s, [l, a, fn, device](std::string *detail) {
		if (sticky() != OK) return OK;
		std::vector<Block> blocks;
		if (std::string why = check_pointers(*fn, l.args, device, &blocks); !why.empty()) {
			*detail = "kernel " + fn->name + ": " + why;
			return (CUresult)ILLEGAL_ADDRESS;
		}
		if (fn->kernel->launches++ == 0) coverage(fn->kernel);
		capture(l, blocks);
		if (emu::Failure f = emu::run(l); !f.error.empty()) {
			*detail = "kernel " + fn->name + ", " + f.error;
			return f.illegal_address ? ILLEGAL_ADDRESS : LAUNCH_FAILED;
		}
		for (const Block &b : blocks)
			if (std::string why = canaries(b); !why.empty()) {
				*detail = "kernel " + fn->name + " " + why;
				return (CUresult)ILLEGAL_ADDRESS;
			}
		return OK;
	});
	return OK;
}
