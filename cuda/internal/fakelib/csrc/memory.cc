// The emulated devices' memory: every cuMemAlloc is a mapping of its own, never memory of the
// calling program. Its layout, from low to high addresses:
//
//	[guard page][canary slack][data, 256-byte aligned][canary to the 256-byte end][guard page]
//
// so reading or writing past either end of a block faults at once when it crosses a page, and
// writing into the slack is found by canaries(), which the driver runs after each kernel or
// product that was handed the block. Fresh memory is poisoned (0xff bytes: NaN floats, -1
// integers), as a GPU's memory is not zeroed.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <shared_mutex>

#include "fake.h"

namespace fake {

namespace {
constexpr unsigned char kCanary = 0xcd, kPoison = 0xff;

struct Mapping {
	Block b;
	char *map;
	size_t len;
};

std::shared_mutex mu;
std::map<uintptr_t, Mapping> blocks; // by base
size_t in_use[kMaxDevices];

size_t page() {
	static size_t p = (size_t)sysconf(_SC_PAGESIZE);
	return p;
}
size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }
} // namespace

size_t capacity() {
	static size_t c = [] {
		if (const char *s = getenv("FAKE_CUDA_MEMORY")) return (size_t)strtoull(s, nullptr, 10);
		return (size_t)8 << 30;
	}();
	return c;
}

size_t used(int device) {
	std::shared_lock<std::shared_mutex> lk(mu);
	return device >= 0 && device < kMaxDevices ? in_use[device] : 0;
}

CUresult mem_alloc(size_t n, int device, uintptr_t *out) {
	if (n == 0) return fail(INVALID_VALUE, "cuMemAlloc of 0 bytes");
	{
		std::shared_lock<std::shared_mutex> lk(mu);
		if (in_use[device] + n > capacity())
			return fail(OUT_OF_MEMORY, "cuda:" + std::to_string(device) + " has " + std::to_string(capacity() - in_use[device]) + " of its " +
				std::to_string(capacity()) + " bytes free (FAKE_CUDA_MEMORY sets the emulated size)");
	}
	size_t data = round_up(n, 256), body = round_up(data, page()), len = body + 2 * page();
	char *m = (char *)mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) return fail(OUT_OF_MEMORY, std::string("mmap: ") + strerror(errno));
	mprotect(m, page(), PROT_NONE);
	mprotect(m + page() + body, page(), PROT_NONE);
	char *end = m + page() + body, *base = end - data;
	memset(m + page(), kCanary, base - (m + page()));
	memset(base, kPoison, n);
	memset(base + n, kCanary, data - n);
	std::unique_lock<std::shared_mutex> lk(mu);
	blocks[(uintptr_t)base] = Mapping{Block{(uintptr_t)base, n, device}, m, len};
	in_use[device] += n;
	*out = (uintptr_t)base;
	return OK;
}

CUresult mem_free(uintptr_t p) {
	std::unique_lock<std::shared_mutex> lk(mu);
	auto it = blocks.find(p);
	if (it == blocks.end()) return fail(INVALID_VALUE, "cuMemFree of an address that cuMemAlloc did not return (or freed already)");
	in_use[it->second.b.device] -= it->second.b.size;
	munmap(it->second.map, it->second.len);
	blocks.erase(it);
	return OK;
}

bool lookup(uintptr_t p, Block *out) {
	std::shared_lock<std::shared_mutex> lk(mu);
	auto it = blocks.upper_bound(p);
	if (it == blocks.begin()) return false;
	--it;
	const Block &b = it->second.b;
	if (p >= b.base + b.size) return false;
	if (out) *out = b;
	return true;
}

bool in_device(uintptr_t p, size_t n, Block *out, std::string *why) {
	Block b;
	char buf[200];
	if (!lookup(p, &b)) {
		snprintf(buf, sizeof buf, "%#lx is not device memory", (unsigned long)p);
		if (why) *why = buf;
		return false;
	}
	if (p + n > b.base + b.size) {
		snprintf(buf, sizeof buf, "%zu bytes at %#lx run %zu bytes past the end of the %zu-byte allocation at %#lx", n, (unsigned long)p,
			(size_t)(p + n - b.base - b.size), b.size, (unsigned long)b.base);
		if (why) *why = buf;
		return false;
	}
	if (out) *out = b;
	return true;
}

std::string describe(uintptr_t p) {
	std::shared_lock<std::shared_mutex> lk(mu, std::try_to_lock);
	if (!lk.owns_lock()) return "";
	char buf[200];
	auto it = blocks.upper_bound(p);
	if (it != blocks.begin()) {
		const Mapping &m = std::prev(it)->second;
		if (p < (uintptr_t)m.map + m.len) {
			const Block &b = m.b;
			if (p >= b.base + b.size)
				snprintf(buf, sizeof buf, "%zu bytes past the end of the %zu-byte allocation at %#lx", (size_t)(p - b.base - b.size), b.size, (unsigned long)b.base);
			else if (p < b.base)
				snprintf(buf, sizeof buf, "%zu bytes before the start of the %zu-byte allocation at %#lx", (size_t)(b.base - p), b.size, (unsigned long)b.base);
			else
				snprintf(buf, sizeof buf, "inside the %zu-byte allocation at %#lx", b.size, (unsigned long)b.base);
			return buf;
		}
	}
	if (it != blocks.end() && p >= (uintptr_t)it->second.map) {
		const Block &b = it->second.b;
		snprintf(buf, sizeof buf, "%zu bytes before the start of the %zu-byte allocation at %#lx", (size_t)(b.base - p), b.size, (unsigned long)b.base);
		return buf;
	}
	return "not device memory";
}

std::string canaries(const Block &b) {
	std::shared_lock<std::shared_mutex> lk(mu);
	auto it = blocks.find(b.base);
	if (it == blocks.end()) return "";
	const Mapping &m = it->second;
	const unsigned char *lo = (const unsigned char *)m.map + page(), *base = (const unsigned char *)b.base;
	const unsigned char *hi = base + b.size, *end = base + round_up(b.size, 256);
	char buf[200];
	for (const unsigned char *q = lo; q < base; q++)
		if (*q != kCanary) {
			snprintf(buf, sizeof buf, "wrote %zu bytes before the start of the %zu-byte allocation at %#lx", (size_t)(base - q), b.size, (unsigned long)b.base);
			return buf;
		}
	for (const unsigned char *q = end; q > hi; q--)
		if (q[-1] != kCanary) {
			snprintf(buf, sizeof buf, "wrote %zu bytes past the end of the %zu-byte allocation at %#lx", (size_t)(q - hi), b.size, (unsigned long)b.base);
			return buf;
		}
	return "";
}

} // namespace fake
