// Copies, fills and elementwise kernels (package backend's Core).
#pragma once
#include "common.cuh"

template <typename T> __device__ void copy_same(T *d, View dv, const T *s, View sv, Shape sh, i64 total) {
	GRID_STRIDE(i, total) { d[offset(i, sh, dv)] = s[offset(i, sh, sv)]; }
}
extern "C" __global__ void copy_2(uint16_t *d, View dv, const uint16_t *s, View sv, Shape sh, i64 total) { copy_same(d, dv, s, sv, sh, total); }
extern "C" __global__ void copy_4(uint32_t *d, View dv, const uint32_t *s, View sv, Shape sh, i64 total) { copy_same(d, dv, s, sv, sh, total); }
extern "C" __global__ void copy_8(u64 *d, View dv, const u64 *s, View sv, Shape sh, i64 total) { copy_same(d, dv, s, sv, sh, total); }

// convert_one mirrors package cpu's convert: direct conversions from float32 and to float32,
// the rest through float64.
__device__ __forceinline__ void convert_one(void *d, int ddt, i64 di, const void *s, int sdt, i64 si) {
	switch (ddt) {
	case F32: {
		float v;
		switch (sdt) {
		case F64: v = (float)((const double *)s)[si]; break;
		case I64: v = (float)((const i64 *)s)[si]; break;
		case BF16: v = bf16_to_f32(((const uint16_t *)s)[si]); break;
		case F16: v = f16_to_f32(((const uint16_t *)s)[si]); break;
		default: v = ((const float *)s)[si];
		}
		((float *)d)[di] = v;
		return;
	}
	case F64: ((double *)d)[di] = load64(s, sdt, si); return;
	case I64: ((i64 *)d)[di] = (i64)load64(s, sdt, si); return;
	case BF16:
	case F16: {
		float v = sdt == F32 ? ((const float *)s)[si] : (float)load64(s, sdt, si);
		((uint16_t *)d)[di] = ddt == BF16 ? f32_to_bf16(v) : f32_to_f16(v);
		return;
	}
	}
}

extern "C" __global__ void copy_convert(void *d, View dv, int ddt, const void *s, View sv, int sdt, Shape sh, i64 total) {
	GRID_STRIDE(i, total) { convert_one(d, ddt, offset(i, sh, dv), s, sdt, offset(i, sh, sv)); }
}

extern "C" __global__ void fill_8(u64 *d, u64 v, i64 n) {
	GRID_STRIDE(i, n) { d[i] = v; }
}

// Unary ops, numbered as backend.UnaryOp.
enum { NEG, EXP, LOG, SQRT, ABS, TANH, SIGMOID, RELU, GELU, SILU, POW, CLAMP, ADDS, MULS, AFFINE, GELU_TANH };

__device__ __forceinline__ float ex(float v) { return expf(v); }
__device__ __forceinline__ double ex(double v) { return exp(v); }
__device__ __forceinline__ float lg(float v) { return logf(v); }
__device__ __forceinline__ double lg(double v) { return log(v); }
__device__ __forceinline__ float sq(float v) { return sqrtf(v); }
__device__ __forceinline__ double sq(double v) { return sqrt(v); }
__device__ __forceinline__ float th(float v) { return tanhf(v); }
__device__ __forceinline__ double th(double v) { return tanh(v); }
__device__ __forceinline__ float ef(float v) { return erff(v); }
__device__ __forceinline__ double ef(double v) { return erf(v); }
__device__ __forceinline__ float pw(float v, float p) { return powf(v, p); }
__device__ __forceinline__ double pw(double v, double p) { return pow(v, p); }

template <typename T> __device__ __forceinline__ T unary_one(int op, T v, T p, T q) {
	switch (op) {
	case NEG: return -v;
	case EXP: return ex(v);
	case LOG: return lg(v);
	case SQRT: return sq(v);
	case ABS: return v < 0 ? -v : (v == 0 ? (T)0 : v);
	case TANH: return th(v);
	case SIGMOID: return (T)1 / ((T)1 + ex(-v));
	case RELU: return v > 0 ? v : (v != v ? v : (T)0);
	case GELU: return (T)0.5 * v * ((T)1 + ef(v * (T)0.7071067811865476));
	case SILU: return v / ((T)1 + ex(-v));
	case POW: return p == (T)2 ? v * v : pw(v, p);
	case CLAMP: { // max first, then min: with p > q every element is q, as in PyTorch
		T lo = v < p ? p : v;
		return lo > q ? q : lo;
	}
	case ADDS: return v + p;
	case MULS: return v * p;
	case AFFINE: return v * p + q;
	case GELU_TANH: return (T)0.5 * v * ((T)1 + th((T)0.7978845608028654 * (v + (T)0.044715 * v * v * v)));
	}
	return v;
}

template <typename T> __device__ void unary(int op, T *d, const T *x, i64 n, T p, T q) {
	GRID_STRIDE(i, n) { d[i] = unary_one(op, x[i], p, q); }
}
extern "C" __global__ void unary_f32(int op, float *d, const float *x, i64 n, double p, double q) { unary(op, d, x, n, (float)p, (float)q); }
extern "C" __global__ void unary_f64(int op, double *d, const double *x, i64 n, double p, double q) { unary(op, d, x, n, p, q); }

template <typename T> __device__ __forceinline__ T unary_grad_one(int op, T g, T x, T y, T p, T q) {
	switch (op) {
	case NEG: return -g;
	case EXP: return g * y;
	case LOG: return g / x;
	case SQRT: return g / ((T)2 * y);
	case ABS: return x > 0 ? g : (x < 0 ? -g : (T)0);
	case TANH: return g * ((T)1 - y * y);
	case SIGMOID: return g * y * ((T)1 - y);
	case RELU: return x > 0 ? g : (T)0;
	case GELU: {
		double f = (double)x;
		double cdf = 0.5 * (1 + erf(f * 0.7071067811865476));
		double pdf = 0.3989422804014327 * exp(-0.5 * f * f);
		return g * (T)(cdf + f * pdf);
	}
	case SILU: {
		double f = (double)x, s = 1 / (1 + exp(-f));
		return g * (T)(s * (1 + f * (1 - s)));
	}
	case POW: return g * (T)((double)p * pow((double)x, (double)p - 1));
	case CLAMP: return (x >= p && x <= q) ? g : (T)0;
	case ADDS: return g;
	case MULS:
	case AFFINE: return g * p;
	case GELU_TANH: {
		double f = (double)x, t = tanh(0.7978845608028654 * (f + 0.044715 * f * f * f));
		return g * (T)(0.5 * (1 + t) + 0.5 * f * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * f * f));
	}
	}
	return g;
}

// x or y is null when the op's derivative does not use it; ReLU's derivative then reads y.
template <typename T> __device__ void unary_grad(int op, T *dx, const T *gy, const T *x, const T *y, i64 n, T p, T q) {
	GRID_STRIDE(i, n) {
		T xv = x ? x[i] : (T)0, yv = y ? y[i] : (T)0;
		if (op == RELU && !x) xv = yv;
		dx[i] = unary_grad_one(op, gy[i], xv, yv, p, q);
	}
}
extern "C" __global__ void unary_grad_f32(int op, float *dx, const float *gy, const float *x, const float *y, i64 n, double p, double q) {
	unary_grad(op, dx, gy, x, y, n, (float)p, (float)q);
}
extern "C" __global__ void unary_grad_f64(int op, double *dx, const double *gy, const double *x, const double *y, i64 n, double p, double q) {
	unary_grad(op, dx, gy, x, y, n, p, q);
}

// Binary ops, numbered as backend.BinaryOp; comparisons give 1 or 0.
enum { ADD, SUB, MUL, DIV, EQ, NE, GT, LT, GE, LE, MAX2 };

template <typename T> __device__ __forceinline__ T binary_one(int op, T a, T b) {
	switch (op) {
	case ADD: return a + b;
	case SUB: return a - b;
	case MUL: return a * b;
	case DIV: return a / b;
	case EQ: return a == b;
	case NE: return a != b;
	case GT: return a > b;
	case LT: return a < b;
	case GE: return a >= b;
	case LE: return a <= b;
	case MAX2: return (a != a || a > b) ? a : b;
	}
	return a;
}
// Integer division by zero has no trap on the device; it yields 0 here.
template <> __device__ __forceinline__ i64 binary_one<i64>(int op, i64 a, i64 b) {
	switch (op) {
	case ADD: return a + b;
	case SUB: return a - b;
	case MUL: return a * b;
	case DIV: return b == 0 ? 0 : a / b;
	case EQ: return a == b;
	case NE: return a != b;
	case GT: return a > b;
	case LT: return a < b;
	case GE: return a >= b;
	case LE: return a <= b;
	case MAX2: return a > b ? a : b;
	}
	return a;
}

template <typename T> __device__ void binary(int op, T *d, const T *a, View av, const T *b, View bv, Shape sh, i64 total) {
	GRID_STRIDE(i, total) { d[i] = binary_one(op, a[offset(i, sh, av)], b[offset(i, sh, bv)]); }
}
extern "C" __global__ void binary_f32(int op, float *d, const float *a, View av, const float *b, View bv, Shape sh, i64 total) { binary(op, d, a, av, b, bv, sh, total); }
extern "C" __global__ void binary_f64(int op, double *d, const double *a, View av, const double *b, View bv, Shape sh, i64 total) { binary(op, d, a, av, b, bv, sh, total); }
extern "C" __global__ void binary_i64(int op, i64 *d, const i64 *a, View av, const i64 *b, View bv, Shape sh, i64 total) { binary(op, d, a, av, b, bv, sh, total); }

// Contiguous fast paths: a and b contiguous (bScalar: b is one broadcast value).
template <typename T> __device__ void binary_flat(int op, T *d, const T *a, const T *b, int bScalar, i64 n) {
	if (bScalar) {
		T bv = b[0];
		GRID_STRIDE(i, n) { d[i] = binary_one(op, a[i], bv); }
		return;
	}
	GRID_STRIDE(i, n) { d[i] = binary_one(op, a[i], b[i]); }
}
extern "C" __global__ void binary_flat_f32(int op, float *d, const float *a, const float *b, int bScalar, i64 n) { binary_flat(op, d, a, b, bScalar, n); }
extern "C" __global__ void binary_flat_f64(int op, double *d, const double *a, const double *b, int bScalar, i64 n) { binary_flat(op, d, a, b, bScalar, n); }

template <typename T> __device__ void where(T *d, const void *c, int cdt, View cv, const T *a, View av, const T *b, View bv, Shape sh, i64 total) {
	GRID_STRIDE(i, total) { d[i] = load64(c, cdt, offset(i, sh, cv)) != 0 ? a[offset(i, sh, av)] : b[offset(i, sh, bv)]; }
}
extern "C" __global__ void where_f32(float *d, const void *c, int cdt, View cv, const float *a, View av, const float *b, View bv, Shape sh, i64 total) {
	where(d, c, cdt, cv, a, av, b, bv, sh, total);
}
extern "C" __global__ void where_f64(double *d, const void *c, int cdt, View cv, const double *a, View av, const double *b, View bv, Shape sh, i64 total) {
	where(d, c, cdt, cv, a, av, b, bv, sh, total);
}
extern "C" __global__ void where_i64(i64 *d, const void *c, int cdt, View cv, const i64 *a, View av, const i64 *b, View bv, Shape sh, i64 total) {
	where(d, c, cdt, cv, a, av, b, bv, sh, total);
}
