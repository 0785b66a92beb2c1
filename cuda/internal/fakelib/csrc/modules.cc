// The fake driver's modules and launches: cuModuleLoadDataEx reads the PTX's entries,
// cuModuleGetFunction finds the compiled kernel of an entry (and checks its parameters against
// the PTX's), and cuLaunchKernel checks the launch as the driver does, copies each parameter with
// the size the PTX declares, and queues the grid to run on the CPU; the kernel's pointers must
// be memory of the stream's device, and the canaries around that memory must be intact after.
#include <fcntl.h>
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

using namespace fake;

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
	for (int i = 0; params && i < logged_params() && i < (int)f->params.size() && len < (int)sizeof buf - 32; i++) {
		if (logged_param_bytes() == 8) {
			unsigned long long w = 0;
			memcpy(&w, params[i], f->params[i].size < 8 ? f->params[i].size : 8);
			len += snprintf(buf + len, sizeof buf - len, " p%d=%llx", i, w);
			continue;
		}
		// param_bytes/8 little-endian 64-bit words, in decimal (Shape and View structs)
		len += snprintf(buf + len, sizeof buf - len, " p%d=", i);
		for (int w = 0; w < logged_param_bytes() / 8 && (size_t)(w * 8) < f->params[i].size && len < (int)sizeof buf - 32; w++)
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
