// Shared definitions of goaccel's CUDA kernels. Sizes and offsets are 64-bit element counts;
// dtype codes are those of package backend (F32 0, F64 1, BF16 2, F16 3, I64 4).
#pragma once
#include <stdint.h>

typedef long long i64;
typedef unsigned long long u64;

#define MAXD 8
#define BLOCK 256

// Shape is a (coalesced) iteration shape; View a strided operand over it.
struct Shape {
	i64 n[MAXD];
	i64 nd;
};
struct View {
	i64 off;
	i64 st[MAXD];
};

enum { F32 = 0, F64 = 1, BF16 = 2, F16 = 3, I64 = 4 };

// Err is the device's error word: the first kernel that finds a bad input records its kind and
// values; the host reads it at the next synchronisation.
enum { ERR_INDEX = 1, ERR_TARGET = 2 };
__device__ __forceinline__ void report(i64 *err, i64 kind, i64 a, i64 b, i64 c) {
	if (atomicCAS((u64 *)err, 0ull, (u64)kind) == 0ull) {
		err[1] = a;
		err[2] = b;
		err[3] = c;
	}
}

#define GRID_STRIDE(i, total) for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (total); i += (i64)gridDim.x * blockDim.x)

// offset maps the linear index i over s to an element offset in v.
__device__ __forceinline__ i64 offset(i64 i, const Shape &s, const View &v) {
	i64 p = v.off;
	for (int d = (int)s.nd - 1; d >= 0; d--) {
		i64 c = i % s.n[d];
		i /= s.n[d];
		p += c * v.st[d];
	}
	return p;
}

// Half-precision conversions, bit for bit those of package half (round to nearest even).
__device__ __forceinline__ float bf16_to_f32(uint16_t h) { return __uint_as_float(((uint32_t)h) << 16); }

__device__ __forceinline__ uint16_t f32_to_bf16(float f) {
	uint32_t b = __float_as_uint(f);
	if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(b >> 16) | 0x40;
	return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

__device__ __forceinline__ float f16_to_f32(uint16_t h) {
	uint32_t sign = ((uint32_t)(h & 0x8000)) << 16;
	uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	if (exp == 0) {
		float v = (float)man * (1.0f / 16777216.0f);
		return sign ? -v : v;
	}
	if (exp == 0x1f) return __uint_as_float(sign | 0x7f800000u | (man << 13));
	return __uint_as_float(sign | ((exp + 112) << 23) | (man << 13));
}

__device__ __forceinline__ uint16_t f32_to_f16(float f) {
	uint32_t b = __float_as_uint(f);
	uint16_t sign = (uint16_t)(b >> 16) & 0x8000;
	int exp = (int)((b >> 23) & 0xff);
	uint32_t man = b & 0x7fffff;
	if (exp == 0xff) return man ? (uint16_t)(sign | 0x7e00 | (man >> 13)) : (uint16_t)(sign | 0x7c00);
	int e = exp - 112;
	if (e >= 0x1f) return sign | 0x7c00;
	if (e <= 0) {
		if (exp == 0) return sign;
		uint32_t m = man | 0x800000;
		uint32_t shift = (uint32_t)(14 - e);
		if (shift > 24) return sign;
		uint32_t k = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (k & 1))) k++;
		return sign | (uint16_t)k;
	}
	uint32_t k = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (k & 1))) k++;
	return sign | (uint16_t)k;
}

// load64 reads any element as double (package cpu's loadF64).
__device__ __forceinline__ double load64(const void *p, int dt, i64 i) {
	switch (dt) {
	case F32: return ((const float *)p)[i];
	case F64: return ((const double *)p)[i];
	case I64: return (double)((const i64 *)p)[i];
	case BF16: return bf16_to_f32(((const uint16_t *)p)[i]);
	}
	return f16_to_f32(((const uint16_t *)p)[i]);
}

// Block reductions over BLOCK threads through shared memory; every thread gets the result.
template <typename T, typename F> __device__ T block_reduce(T v, F combine) {
	__shared__ T sh[BLOCK];
	sh[threadIdx.x] = v;
	__syncthreads();
	for (int s = BLOCK / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s) sh[threadIdx.x] = combine(sh[threadIdx.x], sh[threadIdx.x + s]);
		__syncthreads();
	}
	T r = sh[0];
	__syncthreads();
	return r;
}

struct Plus {
	template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct MaxNaN { // NaN wins, as in the CPU kernels
	template <typename T> __device__ T operator()(T a, T b) const { return (a != a || a > b) ? a : b; }
};
