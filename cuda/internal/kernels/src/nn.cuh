// Layer norm, cross entropy, indexing, convolution helpers and pooling.
#pragma once
#include "common.cuh"

// layernorm: one block per row; mean and variance accumulate in double (two passes).
template <typename T> __device__ void layernorm(T *y, T *mean, T *rstd, const T *x, const T *w, const T *b, i64 rows, i64 n, double eps) {
	for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *row = x + r * n;
		double s = 0;
		for (i64 i = threadIdx.x; i < n; i += BLOCK) s += (double)row[i];
		double mu = block_reduce(s, Plus()) / (double)n;
		double ss = 0;
		for (i64 i = threadIdx.x; i < n; i += BLOCK) {
			double d = (double)row[i] - mu;
			ss += d * d;
		}
		double rs = 1 / sqrt(block_reduce(ss, Plus()) / (double)n + eps);
		if (threadIdx.x == 0) {
			mean[r] = (T)mu;
			rstd[r] = (T)rs;
		}
		for (i64 i = threadIdx.x; i < n; i += BLOCK) {
			T h = (T)(((double)row[i] - mu) * rs);
			if (w) h *= w[i];
			if (b) h += b[i];
			y[r * n + i] = h;
		}
	}
}
extern "C" __global__ void layernorm_f32(float *y, float *mean, float *rstd, const float *x, const float *w, const float *b, i64 rows, i64 n, double eps) {
	layernorm(y, mean, rstd, x, w, b, rows, n, eps);
}
extern "C" __global__ void layernorm_f64(double *y, double *mean, double *rstd, const double *x, const double *w, const double *b, i64 rows, i64 n, double eps) {
	layernorm(y, mean, rstd, x, w, b, rows, n, eps);
}

// layernorm_grad_dx: one block per row.
template <typename T> __device__ void layernorm_grad_dx(T *dx, const T *gy, const T *x, const T *mean, const T *rstd, const T *w, i64 rows, i64 n) {
	for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *xr = x + r * n, *gr = gy + r * n;
		double mu = (double)mean[r], rs = (double)rstd[r];
		double sg = 0, sgx = 0;
		for (i64 i = threadIdx.x; i < n; i += BLOCK) {
			double xh = ((double)xr[i] - mu) * rs, gh = (double)gr[i];
			if (w) gh *= (double)w[i];
			sg += gh;
			sgx += gh * xh;
		}
		sg = block_reduce(sg, Plus()) / (double)n;
		sgx = block_reduce(sgx, Plus()) / (double)n;
		for (i64 i = threadIdx.x; i < n; i += BLOCK) {
			double xh = ((double)xr[i] - mu) * rs, gh = (double)gr[i];
			if (w) gh *= (double)w[i];
			dx[r * n + i] = (T)(rs * (gh - sg - xh * sgx));
		}
	}
}
extern "C" __global__ void layernorm_grad_dx_f32(float *dx, const float *gy, const float *x, const float *mean, const float *rstd, const float *w, i64 rows, i64 n) {
	layernorm_grad_dx(dx, gy, x, mean, rstd, w, rows, n);
}
extern "C" __global__ void layernorm_grad_dx_f64(double *dx, const double *gy, const double *x, const double *mean, const double *rstd, const double *w, i64 rows, i64 n) {
	layernorm_grad_dx(dx, gy, x, mean, rstd, w, rows, n);
}

// layernorm_grad_wb: one thread per column, rows in order (deterministic), accumulating into
// dw and db (either may be null).
template <typename T> __device__ void layernorm_grad_wb(T *dw, T *db, const T *gy, const T *x, const T *mean, const T *rstd, i64 rows, i64 n) {
	GRID_STRIDE(i, n) {
		double sw = 0, sb = 0;
		for (i64 r = 0; r < rows; r++) {
			double g = (double)gy[r * n + i];
			sw += g * (((double)x[r * n + i] - (double)mean[r]) * (double)rstd[r]);
			sb += g;
		}
		if (dw) dw[i] += (T)sw;
		if (db) db[i] += (T)sb;
	}
}
extern "C" __global__ void layernorm_grad_wb_f32(float *dw, float *db, const float *gy, const float *x, const float *mean, const float *rstd, i64 rows, i64 n) {
	layernorm_grad_wb(dw, db, gy, x, mean, rstd, rows, n);
}
extern "C" __global__ void layernorm_grad_wb_f64(double *dw, double *db, const double *gy, const double *x, const double *mean, const double *rstd, i64 rows, i64 n) {
	layernorm_grad_wb(dw, db, gy, x, mean, rstd, rows, n);
}

// xent: one block per row: the row softmax into prob and the (smoothed) loss; a target outside
// [0, classes) that is not ignore is reported. count (when not null, zeroed by the caller) gets
// the number of rows whose target is not ignore.
template <typename T> __device__ void xent(T *loss, T *prob, T *count, const T *logits, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps, i64 *err) {
	for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {
		const T *row = logits + r * classes;
		T *p = prob + r * classes;
		T m = classes > 0 ? row[0] : (T)0; // no classes: every target is out of range, reported below
		for (i64 j = threadIdx.x; j < classes; j += BLOCK) m = row[j] > m ? row[j] : m;
		m = block_reduce(m, MaxNaN());
		double sum = 0, sumLogit = 0;
		for (i64 j = threadIdx.x; j < classes; j += BLOCK) {
			double e = exp((double)(row[j] - m));
			p[j] = (T)e;
			sum += e;
			sumLogit += (double)row[j];
		}
		sum = block_reduce(sum, Plus());
		sumLogit = block_reduce(sumLogit, Plus());
		T inv = (T)(1 / sum);
		for (i64 j = threadIdx.x; j < classes; j += BLOCK) p[j] *= inv;
		if (threadIdx.x == 0) {
			i64 t = target[r];
			if (count && t != ignore) atomicAdd(count, (T)1);
			if (t == ignore) {
				loss[r] = 0;
			} else if (t < 0 || t >= classes) {
				report(err, ERR_TARGET, t, r, classes);
				loss[r] = 0;
			} else {
				double lse = (double)m + log(sum);
				double l = (1 - eps) * (lse - (double)row[t]);
				if (eps != 0) l += eps / (double)classes * ((double)classes * lse - sumLogit);
				loss[r] = (T)l;
			}
		}
	}
}
extern "C" __global__ void xent_f32(float *loss, float *prob, float *count, const float *logits, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps, i64 *err) {
	xent(loss, prob, count, logits, target, rows, classes, ignore, eps, err);
}
extern "C" __global__ void xent_f64(double *loss, double *prob, double *count, const double *logits, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps, i64 *err) {
	xent(loss, prob, count, logits, target, rows, classes, ignore, eps, err);
}

// xent_grad: dlogits = g·(p − ε/C), minus g·(1−ε) at the target; zero on ignored rows. gl has
// one element per row, or one for all (glen 1).
template <typename T> __device__ void xent_grad(T *d, const T *gl, i64 glen, const T *prob, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps) {
	T u = (T)(eps / (double)classes), keep = (T)(1 - eps);
	GRID_STRIDE(k, rows * classes) {
		i64 r = k / classes, c = k % classes, t = target[r];
		if (t == ignore || t < 0 || t >= classes) {
			d[k] = 0;
			continue;
		}
		T g = glen == 1 ? gl[0] : gl[r];
		T v = g * (prob[k] - u);
		if (c == t) v -= g * keep;
		d[k] = v;
	}
}
extern "C" __global__ void xent_grad_f32(float *d, const float *gl, i64 glen, const float *prob, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps) {
	xent_grad(d, gl, glen, prob, target, rows, classes, ignore, eps);
}
extern "C" __global__ void xent_grad_f64(double *d, const double *gl, i64 glen, const double *prob, const i64 *target, i64 rows, i64 classes, i64 ignore, double eps) {
	xent_grad(d, gl, glen, prob, target, rows, classes, ignore, eps);
}

// index_select: dst[o, j, i] = src[o, idx[j], i], any element size.
template <typename T> __device__ void index_select(T *d, const T *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) {
	GRID_STRIDE(k, outer * m * inner) {
		i64 i = k % inner, j = (k / inner) % m, o = k / (inner * m), r = idx[j];
		if (r < 0 || r >= n) {
			report(err, ERR_INDEX, r, n, 0);
			continue;
		}
		d[k] = s[(o * n + r) * inner + i];
	}
}
extern "C" __global__ void index_select_2(uint16_t *d, const uint16_t *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { index_select(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void index_select_4(uint32_t *d, const uint32_t *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { index_select(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void index_select_8(u64 *d, const u64 *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { index_select(d, s, idx, outer, n, m, inner, err); }

// index_add: dst[o, idx[j], i] += src[o, j, i] (atomic: repeated indices accumulate).
template <typename T> __device__ void index_add(T *d, const T *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) {
	GRID_STRIDE(k, outer * m * inner) {
		i64 i = k % inner, j = (k / inner) % m, o = k / (inner * m), r = idx[j];
		if (r < 0 || r >= n) {
			report(err, ERR_INDEX, r, n, 0);
			continue;
		}
		atomicAdd(&d[(o * n + r) * inner + i], s[k]);
	}
}
extern "C" __global__ void index_add_f32(float *d, const float *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { index_add(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void index_add_f64(double *d, const double *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { index_add(d, s, idx, outer, n, m, inner, err); }

// gather: dst[o, j, i] = src[o, idx[o, j, i], i], any element size.
template <typename T> __device__ void gather(T *d, const T *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) {
	GRID_STRIDE(k, outer * m * inner) {
		i64 i = k % inner, o = k / (inner * m), r = idx[k];
		if (r < 0 || r >= n) {
			report(err, ERR_INDEX, r, n, 0);
			continue;
		}
		d[k] = s[(o * n + r) * inner + i];
	}
}
extern "C" __global__ void gather_2(uint16_t *d, const uint16_t *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { gather(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void gather_4(uint32_t *d, const uint32_t *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { gather(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void gather_8(u64 *d, const u64 *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { gather(d, s, idx, outer, n, m, inner, err); }

template <typename T> __device__ void scatter_add(T *d, const T *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) {
	GRID_STRIDE(k, outer * m * inner) {
		i64 i = k % inner, o = k / (inner * m), r = idx[k];
		if (r < 0 || r >= n) {
			report(err, ERR_INDEX, r, n, 0);
			continue;
		}
		atomicAdd(&d[(o * n + r) * inner + i], s[k]);
	}
}
extern "C" __global__ void scatter_add_f32(float *d, const float *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { scatter_add(d, s, idx, outer, n, m, inner, err); }
extern "C" __global__ void scatter_add_f64(double *d, const double *s, const i64 *idx, i64 outer, i64 n, i64 m, i64 inner, i64 *err) { scatter_add(d, s, idx, outer, n, m, inner, err); }

// Conv is one convolution's geometry: channels, image, kernel, stride, padding, output.
struct Conv {
	i64 c, h, w, kh, kw, stride, pad, oh, ow;
};

// im2col: col[(c·kh + ki)·kw + kj][oy·ow + ox] (rows ldCol apart) from the CHW image.
template <typename T> __device__ void im2col(T *col, i64 ldCol, const T *x, Conv g) {
	i64 l = g.oh * g.ow;
	GRID_STRIDE(k, g.c * g.kh * g.kw * l) {
		i64 row = k / l, pos = k % l;
		i64 ci = row / (g.kh * g.kw), ki = (row / g.kw) % g.kh, kj = row % g.kw;
		i64 iy = (pos / g.ow) * g.stride - g.pad + ki, ix = (pos % g.ow) * g.stride - g.pad + kj;
		col[row * ldCol + pos] = (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w) ? x[(ci * g.h + iy) * g.w + ix] : (T)0;
	}
}
extern "C" __global__ void im2col_f32(float *col, i64 ldCol, const float *x, Conv g) { im2col(col, ldCol, x, g); }
extern "C" __global__ void im2col_f64(double *col, i64 ldCol, const double *x, Conv g) { im2col(col, ldCol, x, g); }

// col2im: each image element adds up the column entries that read it (no atomics).
template <typename T> __device__ void col2im(T *dx, const T *col, i64 ldCol, Conv g) {
	GRID_STRIDE(k, g.c * g.h * g.w) {
		i64 ix = k % g.w, iy = (k / g.w) % g.h, ci = k / (g.w * g.h);
		T s = 0;
		for (i64 ki = 0; ki < g.kh; ki++) {
			i64 ty = iy + g.pad - ki;
			if (ty < 0 || ty % g.stride != 0 || ty / g.stride >= g.oh) continue;
			for (i64 kj = 0; kj < g.kw; kj++) {
				i64 tx = ix + g.pad - kj;
				if (tx < 0 || tx % g.stride != 0 || tx / g.stride >= g.ow) continue;
				s += col[((ci * g.kh + ki) * g.kw + kj) * ldCol + (ty / g.stride) * g.ow + tx / g.stride];
			}
		}
		dx[k] += s;
	}
}
extern "C" __global__ void col2im_f32(float *dx, const float *col, i64 ldCol, Conv g) { col2im(dx, col, ldCol, g); }
extern "C" __global__ void col2im_f64(double *dx, const double *col, i64 ldCol, Conv g) { col2im(dx, col, ldCol, g); }

// maxpool: each output scans its window; arg is the plane position of its first maximum (a NaN
// replaces the maximum, as in the CPU kernel).
template <typename T> __device__ void maxpool(T *y, i64 *arg, const T *x, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	GRID_STRIDE(o, planes * oh * ow) {
		i64 ox = o % ow, oy = (o / ow) % oh, p = o / (ow * oh);
		const T *plane = x + p * h * w;
		i64 bi = oy * stride * w + ox * stride;
		T best = plane[bi];
		for (i64 ki = 0; ki < k; ki++)
			for (i64 kj = 0; kj < k; kj++) {
				i64 i = (oy * stride + ki) * w + ox * stride + kj;
				T v = plane[i];
				if (v > best || v != v) {
					best = v;
					bi = i;
				}
			}
		y[o] = best;
		arg[o] = bi;
	}
}
extern "C" __global__ void maxpool_f32(float *y, i64 *arg, const float *x, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	maxpool(y, arg, x, planes, h, w, k, stride, oh, ow);
}
extern "C" __global__ void maxpool_f64(double *y, i64 *arg, const double *x, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	maxpool(y, arg, x, planes, h, w, k, stride, oh, ow);
}

// maxpool_grad: each input element adds the gradients of the windows that picked it.
template <typename T> __device__ void maxpool_grad(T *dx, const T *gy, const i64 *arg, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	GRID_STRIDE(e, planes * h * w) {
		i64 pos = e % (h * w), p = e / (h * w), iy = pos / w, ix = pos % w;
		i64 oy0 = iy >= k ? (iy - k) / stride + 1 : 0, ox0 = ix >= k ? (ix - k) / stride + 1 : 0;
		i64 oy1 = min(oh - 1, iy / stride), ox1 = min(ow - 1, ix / stride);
		T s = 0;
		for (i64 oy = oy0; oy <= oy1; oy++)
			for (i64 ox = ox0; ox <= ox1; ox++) {
				i64 o = (p * oh + oy) * ow + ox;
				if (arg[o] == pos) s += gy[o];
			}
		dx[e] += s;
	}
}
extern "C" __global__ void maxpool_grad_f32(float *dx, const float *gy, const i64 *arg, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	maxpool_grad(dx, gy, arg, planes, h, w, k, stride, oh, ow);
}
extern "C" __global__ void maxpool_grad_f64(double *dx, const double *gy, const i64 *arg, i64 planes, i64 h, i64 w, i64 k, i64 stride, i64 oh, i64 ow) {
	maxpool_grad(dx, gy, arg, planes, h, w, k, stride, oh, ow);
}

// AvgPool is package backend's AvgPoolParams (64-bit fields, bools as 0/1).
struct AvgPool {
	i64 planes, h, w, oh, ow, kh, kw, sh, sw, ph, pw, include_pad, divisor, adaptive;
};

// pool_window is one axis of a window, as backend's window: [lo, hi) and its divisor factor.
__device__ __forceinline__ void pool_window(i64 i, i64 n, i64 on, i64 k, i64 s, i64 pad, i64 include_pad, i64 adaptive, i64 *lo, i64 *hi, i64 *div) {
	if (adaptive) {
		*lo = i * n / on;
		*hi = ((i + 1) * n + on - 1) / on;
		*div = *hi - *lo;
		return;
	}
	i64 a = i * s - pad, b = min(a + k, n + pad);
	i64 padded = b - a;
	*lo = max(a, (i64)0);
	*hi = min(b, n);
	*div = include_pad ? padded : *hi - *lo;
}

// avgpool: each output sums its window in order and divides by the window's divisor.
template <typename T> __device__ void avgpool(T *y, const T *x, AvgPool p) {
	GRID_STRIDE(o, p.planes * p.oh * p.ow) {
		i64 j = o % p.ow, i = (o / p.ow) % p.oh, pl = o / (p.ow * p.oh);
		i64 r0, r1, dr, c0, c1, dc;
		pool_window(i, p.h, p.oh, p.kh, p.sh, p.ph, p.include_pad, p.adaptive, &r0, &r1, &dr);
		pool_window(j, p.w, p.ow, p.kw, p.sw, p.pw, p.include_pad, p.adaptive, &c0, &c1, &dc);
		const T *plane = x + pl * p.h * p.w;
		T s = 0;
		for (i64 r = r0; r < r1; r++)
			for (i64 c = c0; c < c1; c++) s += plane[r * p.w + c];
		y[o] = s / (T)(p.divisor > 0 ? p.divisor : dr * dc);
	}
}
extern "C" __global__ void avgpool_f32(float *y, const float *x, AvgPool p) { avgpool(y, x, p); }
extern "C" __global__ void avgpool_f64(double *y, const double *x, AvgPool p) { avgpool(y, x, p); }

// avgpool_grad: each input gathers, in output order, the gradients of the windows that cover it
// (no atomics: the sum is the same on every run).
template <typename T> __device__ void avgpool_grad(T *dx, const T *gy, AvgPool p) {
	GRID_STRIDE(e, p.planes * p.h * p.w) {
		i64 c = e % p.w, r = (e / p.w) % p.h, pl = e / (p.w * p.h);
		// Candidate output rows and columns: a window of stride s and size k covers r from
		// ⌈(r+pad−k+1)/s⌉ to ⌊(r+pad)/s⌋; adaptive windows overlap their neighbours by one.
		i64 i0, i1, j0, j1;
		if (p.adaptive) {
			i0 = max(r * p.oh / p.h - 1, (i64)0), i1 = min((r + 1) * p.oh / p.h + 1, p.oh - 1);
			j0 = max(c * p.ow / p.w - 1, (i64)0), j1 = min((c + 1) * p.ow / p.w + 1, p.ow - 1);
		} else {
			i64 ar = r + p.ph - p.kh + 1, ac = c + p.pw - p.kw + 1;
			i0 = ar > 0 ? (ar + p.sh - 1) / p.sh : 0, i1 = min((r + p.ph) / p.sh, p.oh - 1);
			j0 = ac > 0 ? (ac + p.sw - 1) / p.sw : 0, j1 = min((c + p.pw) / p.sw, p.ow - 1);
		}
		const T *g = gy + pl * p.oh * p.ow;
		T s = 0;
		for (i64 i = i0; i <= i1; i++) {
			i64 r0, r1, dr;
			pool_window(i, p.h, p.oh, p.kh, p.sh, p.ph, p.include_pad, p.adaptive, &r0, &r1, &dr);
			if (r < r0 || r >= r1) continue;
			for (i64 j = j0; j <= j1; j++) {
				i64 c0, c1, dc;
				pool_window(j, p.w, p.ow, p.kw, p.sw, p.pw, p.include_pad, p.adaptive, &c0, &c1, &dc);
				if (c < c0 || c >= c1) continue;
				s += g[i * p.ow + j] / (T)(p.divisor > 0 ? p.divisor : dr * dc);
			}
		}
		dx[e] = s;
	}
}
extern "C" __global__ void avgpool_grad_f32(float *dx, const float *gy, AvgPool p) { avgpool_grad(dx, gy, p); }
extern "C" __global__ void avgpool_grad_f64(double *dx, const double *gy, AvgPool p) { avgpool_grad(dx, gy, p); }
