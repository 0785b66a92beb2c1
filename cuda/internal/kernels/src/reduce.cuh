// Reductions over the middle axis of [outer, n, inner] and the softmax family: one block per
// output (o, i), its threads striding over n.
#pragma once
#include "common.cuh"

enum { R_SUM, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN };

template <typename T> struct Acc { typedef double type; };
template <> struct Acc<i64> { typedef i64 type; };

// ArgPair orders (value, index) as the CPU's scan does: the first NaN wins, then the extreme,
// then the lower index.
template <typename T> struct ArgPair {
	T v;
	i64 i;
};
template <typename T> struct ArgBetter {
	int max;
	__device__ ArgPair<T> operator()(ArgPair<T> a, ArgPair<T> b) const {
		if (a.i < 0) return b;
		if (b.i < 0) return a;
		bool an = a.v != a.v, bn = b.v != b.v;
		if (an || bn) return an && (!bn || a.i < b.i) ? a : b;
		if (a.v == b.v) return a.i < b.i ? a : b;
		return (max ? a.v > b.v : a.v < b.v) ? a : b;
	}
};
struct MinNaN {
	template <typename T> __device__ T operator()(T a, T b) const { return (a != a || a < b) ? a : b; }
};

template <typename T> __device__ void reduce(int op, void *dst, const T *src, i64 outer, i64 n, i64 inner) {
	for (i64 o = blockIdx.x; o < outer * inner; o += gridDim.x) {
		i64 base = (o / inner) * n * inner + o % inner;
		if (op == R_SUM) {
			typename Acc<T>::type s = 0;
			for (i64 j = threadIdx.x; j < n; j += BLOCK) s += src[base + j * inner];
			s = block_reduce(s, Plus());
			if (threadIdx.x == 0) ((T *)dst)[o] = (T)s;
		} else if (op == R_MAX || op == R_MIN) {
			T m = n > 0 ? src[base] : (T)0; // an empty axis has no element to read (tensors refuses it)
			for (i64 j = threadIdx.x; j < n; j += BLOCK) {
				T v = src[base + j * inner];
				m = op == R_MAX ? MaxNaN()(m, v) : MinNaN()(m, v);
			}
			m = op == R_MAX ? block_reduce(m, MaxNaN()) : block_reduce(m, MinNaN());
			if (threadIdx.x == 0) ((T *)dst)[o] = m;
		} else {
			ArgBetter<T> better{op == R_ARGMAX};
			ArgPair<T> best{(T)0, -1};
			for (i64 j = threadIdx.x; j < n; j += BLOCK) best = better(best, ArgPair<T>{src[base + j * inner], j});
			best = block_reduce(best, better);
			if (threadIdx.x == 0) ((i64 *)dst)[o] = best.i;
		}
	}
}
extern "C" __global__ void reduce_f32(int op, void *dst, const float *src, i64 outer, i64 n, i64 inner) { reduce(op, dst, src, outer, n, inner); }
extern "C" __global__ void reduce_f64(int op, void *dst, const double *src, i64 outer, i64 n, i64 inner) { reduce(op, dst, src, outer, n, inner); }
extern "C" __global__ void reduce_i64(int op, void *dst, const i64 *src, i64 outer, i64 n, i64 inner) { reduce(op, dst, src, outer, n, inner); }

// softmax (or log-softmax) of each row; the exponential sums accumulate in double.
template <typename T> __device__ void softmax(T *d, const T *s, i64 outer, i64 n, i64 inner, int log_) {
	if (n == 0) return; // an empty axis: nothing to read or write
	for (i64 o = blockIdx.x; o < outer * inner; o += gridDim.x) {
		i64 base = (o / inner) * n * inner + o % inner;
		T m = s[base];
		for (i64 j = threadIdx.x; j < n; j += BLOCK) {
			T v = s[base + j * inner];
			m = v > m ? v : m;
		}
		m = block_reduce(m, MaxNaN());
		double sum = 0;
		for (i64 j = threadIdx.x; j < n; j += BLOCK) {
			double e = exp((double)(s[base + j * inner] - m));
			sum += e;
			if (!log_) d[base + j * inner] = (T)e;
		}
		sum = block_reduce(sum, Plus());
		if (log_) {
			T lse = (T)log(sum);
			for (i64 j = threadIdx.x; j < n; j += BLOCK) d[base + j * inner] = s[base + j * inner] - m - lse;
		} else {
			T inv = (T)(1 / sum);
			for (i64 j = threadIdx.x; j < n; j += BLOCK) d[base + j * inner] *= inv;
		}
	}
}
extern "C" __global__ void softmax_f32(float *d, const float *s, i64 outer, i64 n, i64 inner, int log_) { softmax(d, s, outer, n, inner, log_); }
extern "C" __global__ void softmax_f64(double *d, const double *s, i64 outer, i64 n, i64 inner, int log_) { softmax(d, s, outer, n, inner, log_); }

template <typename T> __device__ void softmax_grad(T *dx, const T *gy, const T *y, i64 outer, i64 n, i64 inner, int log_) {
	for (i64 o = blockIdx.x; o < outer * inner; o += gridDim.x) {
		i64 base = (o / inner) * n * inner + o % inner;
		double dot = 0;
		for (i64 j = threadIdx.x; j < n; j += BLOCK) {
			i64 k = base + j * inner;
			dot += log_ ? (double)gy[k] : (double)(gy[k] * y[k]);
		}
		dot = block_reduce(dot, Plus());
		for (i64 j = threadIdx.x; j < n; j += BLOCK) {
			i64 k = base + j * inner;
			dx[k] = log_ ? gy[k] - (T)(exp((double)y[k]) * dot) : y[k] * (gy[k] - (T)dot);
		}
	}
}
extern "C" __global__ void softmax_grad_f32(float *dx, const float *gy, const float *y, i64 outer, i64 n, i64 inner, int log_) {
	softmax_grad(dx, gy, y, outer, n, inner, log_);
}
extern "C" __global__ void softmax_grad_f64(double *dx, const double *gy, const double *y, i64 outer, i64 n, i64 inner, int log_) {
	softmax_grad(dx, gy, y, outer, n, inner, log_);
}
