// CUDA C++ on the CPU: the language surface goaccel's kernels use (and the usual rest of it), so
// that the kernel sources compile unchanged with g++ -std=c++20 and run in the emulated device of
// the fake libcuda. It is force-included (-include emu.h) before the kernel sources.
//
// Execution model (emu_blocks.cc): the blocks of a launch run on a pool of OS threads; the
// threads of one block run as fibers on one OS thread, switching only where CUDA threads
// synchronise (__syncthreads, __syncwarp, warp shuffles and votes). Every synchronisation is
// checked: all threads of a block must reach the same __syncthreads, and all lanes named by a
// warp operation's mask must reach the same operation with the same mask; anything else fails
// the launch with a message naming the threads, the lines and the masks, where a GPU would hang
// or return undefined values.
#pragma once

#include <stdint.h>
#include <math.h>
#include <string.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <source_location>
#include <type_traits>

// Qualifiers: host code is device code here. __shared__ variables are per block: a block's
// fibers all run on one OS thread, and block-scope thread_local is static storage per thread.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __shared__ thread_local
#define __constant__ static const

struct uint3 {
	unsigned x, y, z;
};
struct dim3 {
	unsigned x, y, z;
	constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

// The built-in variables of the running CUDA thread (set by the scheduler on every switch).
inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
constexpr int warpSize = 32;

namespace emu {
using site = std::source_location;

// The scheduler's entry points (emu_blocks.cc). Each returns once the CUDA threads the
// operation names have all reached it; kind and site identify the operation for the checks.
void sync_block(const site &at);
enum warp_kind { W_SHFL, W_SHFL_UP, W_SHFL_DOWN, W_SHFL_XOR, W_BALLOT, W_ANY, W_ALL, W_SYNC };
// warp_exchange publishes this lane's 64-bit value for the operation and returns the value
// of lane src (which must take part), or this lane's own when src < 0.
uint64_t warp_exchange(warp_kind kind, unsigned mask, uint64_t value, int src, const site &at);
// warp_vote returns the lanes of mask whose predicate was true.
unsigned warp_vote(warp_kind kind, unsigned mask, bool pred, const site &at);
unsigned active_mask();
[[noreturn]] void trap(const site &at);

template <typename T> inline uint64_t to_bits(T v) {
	static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "a warp shuffle moves at most 8 bytes");
	uint64_t b = 0;
	memcpy(&b, &v, sizeof v);
	return b;
}
template <typename T> inline T from_bits(uint64_t b) {
	T v;
	memcpy(&v, &b, sizeof v);
	return v;
}
inline unsigned lane() { return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % warpSize; }
} // namespace emu

inline void __syncthreads(const emu::site &at = emu::site::current()) { emu::sync_block(at); }
inline void __syncwarp(unsigned mask = 0xffffffffu, const emu::site &at = emu::site::current()) {
	emu::warp_exchange(emu::W_SYNC, mask, 0, -1, at);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
[[noreturn]] inline void __trap(const emu::site &at = emu::site::current()) { emu::trap(at); }
inline unsigned __activemask() { return emu::active_mask(); }

// Warp shuffles: the source lane of each form, as the CUDA C++ Programming Guide defines it
// for segments of width lanes (a source outside the caller's segment returns its own value).
template <typename T> T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize, const emu::site &at = emu::site::current()) {
	int l = (int)emu::lane(), base = l & ~(width - 1);
	return emu::from_bits<T>(emu::warp_exchange(emu::W_SHFL, mask, emu::to_bits(var), base + (srcLane & (width - 1)), at));
}
template <typename T> T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, const emu::site &at = emu::site::current()) {
	int l = (int)emu::lane(), base = l & ~(width - 1), src = l - (int)delta;
	return emu::from_bits<T>(emu::warp_exchange(emu::W_SHFL_UP, mask, emu::to_bits(var), src < base ? -1 : src, at));
}
template <typename T> T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, const emu::site &at = emu::site::current()) {
	int l = (int)emu::lane(), base = l & ~(width - 1), src = l + (int)delta;
	return emu::from_bits<T>(emu::warp_exchange(emu::W_SHFL_DOWN, mask, emu::to_bits(var), src >= base + width ? -1 : src, at));
}
template <typename T> T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize, const emu::site &at = emu::site::current()) {
	int l = (int)emu::lane(), base = l & ~(width - 1), src = l ^ laneMask;
	return emu::from_bits<T>(emu::warp_exchange(emu::W_SHFL_XOR, mask, emu::to_bits(var), src >= base + width ? -1 : src, at));
}

// Warp votes.
inline unsigned __ballot_sync(unsigned mask, int pred, const emu::site &at = emu::site::current()) {
	return emu::warp_vote(emu::W_BALLOT, mask, pred != 0, at);
}
inline int __any_sync(unsigned mask, int pred, const emu::site &at = emu::site::current()) {
	return emu::warp_vote(emu::W_ANY, mask, pred != 0, at) != 0;
}
inline int __all_sync(unsigned mask, int pred, const emu::site &at = emu::site::current()) {
	return emu::warp_vote(emu::W_ALL, mask, pred != 0, at) == mask;
}

// Atomics: blocks run concurrently on several OS threads, so these are real atomic operations
// on the emulated device memory (which is ordinary host memory of the fake).
namespace emu {
template <typename T, typename F> T atomic_update(T *p, F f) {
	std::atomic_ref<T> a(*p);
	T old = a.load(std::memory_order_relaxed);
	while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {
	}
	return old;
}
} // namespace emu
template <typename T> T atomicAdd(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return (T)(o + v); });
}
template <typename T> T atomicSub(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return (T)(o - v); });
}
template <typename T> T atomicMax(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return o > v ? o : v; });
}
template <typename T> T atomicMin(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return o < v ? o : v; });
}
template <typename T> T atomicAnd(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return (T)(o & v); });
}
template <typename T> T atomicOr(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return (T)(o | v); });
}
template <typename T> T atomicXor(T *p, T v) {
	return emu::atomic_update(p, [v](T o) { return (T)(o ^ v); });
}
template <typename T> T atomicExch(T *p, T v) { return std::atomic_ref<T>(*p).exchange(v, std::memory_order_relaxed); }
template <typename T> T atomicCAS(T *p, T compare, T v) {
	std::atomic_ref<T>(*p).compare_exchange_strong(compare, v, std::memory_order_relaxed);
	return compare; // the old value, whether or not it was replaced
}
inline unsigned atomicInc(unsigned *p, unsigned limit) {
	return emu::atomic_update(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned *p, unsigned limit) {
	return emu::atomic_update(p, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}

// Reinterpretations and integer intrinsics.
inline float __int_as_float(int v) { return std::bit_cast<float>(v); }
inline int __float_as_int(float v) { return std::bit_cast<int>(v); }
inline float __uint_as_float(unsigned v) { return std::bit_cast<float>(v); }
inline unsigned __float_as_uint(float v) { return std::bit_cast<unsigned>(v); }
inline double __longlong_as_double(long long v) { return std::bit_cast<double>(v); }
inline long long __double_as_longlong(double v) { return std::bit_cast<long long>(v); }
inline int __popc(unsigned v) { return std::popcount(v); }
inline int __popcll(unsigned long long v) { return std::popcount(v); }
inline int __clz(int v) { return std::countl_zero((unsigned)v); }
inline int __clzll(long long v) { return std::countl_zero((unsigned long long)v); }
inline int __ffs(int v) { return v ? std::countr_zero((unsigned)v) + 1 : 0; }
inline int __ffsll(long long v) { return v ? std::countr_zero((unsigned long long)v) + 1 : 0; }
inline unsigned __brev(unsigned v) {
	unsigned r = 0;
	for (int i = 0; i < 32; i++) r |= ((v >> i) & 1u) << (31 - i);
	return r;
}
template <typename T> inline T __ldg(const T *p) { return *p; }

// The device's min and max overloads (CUDA declares them for every arithmetic type).
#define EMU_MINMAX(T)                                      \
	inline T min(T a, T b) { return a < b ? a : b; }       \
	inline T max(T a, T b) { return a > b ? a : b; }
EMU_MINMAX(int)
EMU_MINMAX(unsigned)
EMU_MINMAX(long)
EMU_MINMAX(unsigned long)
EMU_MINMAX(long long)
EMU_MINMAX(unsigned long long)
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
#undef EMU_MINMAX

// Math: the C library's functions (correctly rounded or within an ulp, like CUDA's defaults
// with -prec-div and -prec-sqrt); the fast intrinsics are the same functions here.
using std::isfinite;
using std::isinf;
using std::isnan;
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __saturatef(float x) { return x < 0 ? 0.0f : (x > 1 ? 1.0f : (x == x ? x : 0.0f)); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

// Half precision: the cuda_fp16.h / cuda_bf16.h types and conversions, round to nearest even,
// NaN kept quiet (bit for bit those of goaccel's internal/half and of the GPU).
struct __half {
	uint16_t x;
};
struct __nv_bfloat16 {
	uint16_t x;
};
namespace emu {
inline uint16_t f32_to_f16_bits(float f) {
	uint32_t b = std::bit_cast<uint32_t>(f);
	uint16_t sign = (uint16_t)(b >> 16) & 0x8000;
	int exp = (int)((b >> 23) & 0xff);
	uint32_t man = b & 0x7fffff;
	if (exp == 0xff) return man ? (uint16_t)(sign | 0x7e00 | (man >> 13)) : (uint16_t)(sign | 0x7c00);
	int e = exp - 112;
	if (e >= 0x1f) return sign | 0x7c00;
	if (e <= 0) {
		if (exp == 0) return sign;
		uint32_t m = man | 0x800000, shift = (uint32_t)(14 - e);
		if (shift > 24) return sign;
		uint32_t k = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (k & 1))) k++;
		return sign | (uint16_t)k;
	}
	uint32_t k = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (k & 1))) k++;
	return sign | (uint16_t)k;
}
inline float f16_bits_to_f32(uint16_t h) {
	uint32_t sign = ((uint32_t)(h & 0x8000)) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	if (exp == 0) {
		float v = (float)man * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
	return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}
inline uint16_t f32_to_bf16_bits(float f) {
	uint32_t b = std::bit_cast<uint32_t>(f);
	if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(b >> 16) | 0x40;
	return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
inline float bf16_bits_to_f32(uint16_t h) { return std::bit_cast<float>((uint32_t)h << 16); }
} // namespace emu
inline __half __float2half(float f) { return __half{emu::f32_to_f16_bits(f)}; }
inline __half __float2half_rn(float f) { return __float2half(f); }
inline float __half2float(__half h) { return emu::f16_bits_to_f32(h.x); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16{emu::f32_to_bf16_bits(f)}; }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return emu::bf16_bits_to_f32(h.x); }
inline unsigned short __half_as_ushort(__half h) { return h.x; }
inline __half __ushort_as_half(unsigned short v) { return __half{v}; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.x; }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short v) { return __nv_bfloat16{v}; }
