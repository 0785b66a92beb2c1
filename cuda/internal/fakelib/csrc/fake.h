// Internal interfaces of the fake CUDA libraries (libcuda, cuBLAS, NCCL in one shared object):
// the call log, errors, device memory, contexts, streams and events. The exported C entry
// points live in driver.cc, cublas.cc and nccl.cc.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <string>
#include <vector>

#define API extern "C" __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

namespace fake {

// CUresult codes the fake returns.
constexpr CUresult OK = 0,
	INVALID_VALUE = 1,
	OUT_OF_MEMORY = 2,
	NOT_INITIALIZED = 3,
	NO_DEVICE = 100,
	INVALID_DEVICE = 101,
	INVALID_IMAGE = 200,
	INVALID_CONTEXT = 201,
	INVALID_PTX = 218,
	INVALID_HANDLE = 400,
	NOT_FOUND = 500,
	ILLEGAL_ADDRESS = 700,
	LAUNCH_OUT_OF_RESOURCES = 701,
	LAUNCH_FAILED = 719,
	NOT_SUPPORTED = 801;

// rec appends a line to the call log tests read (fake_log).
void rec(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// fail returns code after recording detail as the text cuGetErrorString gives for it.
CUresult fail(CUresult code, const std::string &detail);
const char *error_name(CUresult code);

// Activity names what the calling thread runs outside a kernel (a product, a collective), for
// the report of a fault in it.
struct Activity {
	explicit Activity(const char *what);
	~Activity();
};

// The number of devices: FAKE_CUDA_DEVICES (1 to kMaxDevices), 2 when unset; and the current
// one (the calling thread's context).
constexpr int kMaxDevices = 8;
int device_count();
int current_device(); // -1 without a current context
bool initialized();   // cuInit succeeded

// What the tests asked cuLaunchKernel to log of its parameters (fake_set_launch_params,
// fake_set_param_bytes).
int logged_params();
int logged_param_bytes();

// ---- device memory (memory.cc) ----

// Each allocation is its own mapping: guard pages on both sides, the data ending at the upper
// guard (256-byte aligned), the slack around it filled with a canary and checked after every
// kernel and product that was given the allocation.
struct Block {
	uintptr_t base;
	size_t size;
	int device;
};
CUresult mem_alloc(size_t n, int device, uintptr_t *out);
CUresult mem_free(uintptr_t p);
// lookup finds the allocation holding address p (false when p is not device memory).
bool lookup(uintptr_t p, Block *out);
// in_device reports whether [p, p+n) lies in one allocation; it says which when not.
bool in_device(uintptr_t p, size_t n, Block *out, std::string *why);
// describe says where address p lies relative to the allocations ("12 bytes past the end of
// the 512-byte allocation at 0x…", or "not device memory"); safe in a signal handler as far as
// it can be (it gives up rather than wait for the allocation table's lock).
std::string describe(uintptr_t p);
// canaries returns "" or how the slack around b was overwritten.
std::string canaries(const Block &b);
size_t used(int device);
size_t capacity();

// ---- streams and events (streams.cc) ----

// A stream runs its operations in order on a thread of its own. An operation that fails
// returns a CUresult and a detail; that error becomes the process's sticky error (as a
// failed kernel poisons a CUDA context), which every later call returns. Operations that
// compute skip their work once there is a sticky error; those that order streams (events)
// always run, so that no wait hangs.
struct Stream;
using Op = std::function<CUresult(std::string *detail)>;
Stream *stream_of(uintptr_t handle, CUresult *err); // 0: the current device's default stream
int stream_device(Stream *s);
// enqueue queues op on s and returns its sequence number.
uint64_t enqueue(Stream *s, Op op);
// wait blocks until s has run op seq (0: everything queued so far).
CUresult wait(Stream *s, uint64_t seq);
CUresult sync_device(int device);
CUresult sync_all();
CUresult sticky(); // the sticky error, OK while there is none

} // namespace fake

// The checks at the top of a driver call: cuInit was called, a context is current, and no
// earlier failure poisoned the process.
#define NEED_INIT \
	if (!fake::initialized()) return fake::fail(fake::NOT_INITIALIZED, "cuInit was not called")
#define NEED_CONTEXT(call) \
	NEED_INIT; \
	if (fake::current_device() < 0) return fake::fail(fake::INVALID_CONTEXT, call " without a current context (cuCtxSetCurrent)"); \
	if (CUresult st = fake::sticky(); st != fake::OK) return st
