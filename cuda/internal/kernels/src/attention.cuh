// Fused scaled dot-product attention and the sampling kernels (top-k, multinomial).
#pragma once
#include "common.cuh"

// Attn mirrors backend.AttentionParams plus the operands' strides ([b, h, t] of each 4-D view;
// the last stride is 1). Every query row is handled by one warp: its lanes split the head
// dimension (at most ATTN_LANE_DIMS elements each), so no row of weights is ever stored. mask
// is the [B, Tk] key padding mask (null: every key visible). A row that sees no key outputs
// zeros, its log-sum-exp is +Inf, and it passes no gradient back.
struct Attn {
	i64 B, H, Tq, Tk, D, Dv;
	i64 q[3], k[3], v[3], o[3];
	double scale, dropout;
	u64 seed;
	i64 causal;
	const i64 *mask;
};

#define ATTN_LANE_DIMS 8 // head sizes up to 256 (32 lanes × 8)
#define WARPS (BLOCK / 32)

// dropout_uniform is backend.DropoutUniform: a SplitMix64 finaliser of seed + (index+1)·φ.
__device__ __forceinline__ float dropout_uniform(u64 seed, u64 index) {
	u64 z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (float)(z >> 40) * (1.0f / 16777216.0f);
}

// keep_scale is the factor of weight (bh, i, j) after dropout: 0 or 1/(1−p).
__device__ __forceinline__ double keep_scale(const Attn &a, i64 bh, i64 i, i64 j) {
	if (a.dropout <= 0) return 1;
	u64 idx = (u64)((bh * a.Tq + i) * a.Tk + j);
	return dropout_uniform(a.seed, idx) >= (float)a.dropout ? 1 / (1 - a.dropout) : 0;
}

template <typename T> __device__ __forceinline__ T warp_sum(T v) {
	for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

// dot of two rows of n elements split across the warp's lanes (lane l takes l, l+32, ...).
template <typename T> __device__ __forceinline__ T warp_dot(const T *x, const T *y, i64 n) {
	T s = 0;
	for (i64 d = threadIdx.x % 32; d < n; d += 32) s += x[d] * y[d];
	return warp_sum(s);
}

__device__ __forceinline__ i64 keys_seen(const Attn &a, i64 i) { return a.causal ? (i + 1 < a.Tk ? i + 1 : a.Tk) : a.Tk; }

// key_masked reports whether the key padding mask hides key j of batch row b.
__device__ __forceinline__ bool key_masked(const Attn &a, i64 b, i64 j) { return a.mask && a.mask[b * a.Tk + j] == 0; }

// attn_fwd: out and lse by the online softmax over keys, one warp per query row.
template <typename T> __device__ void attn_fwd(T *out, T *lse, const T *q, const T *k, const T *v, Attn a) {
	int lane = threadIdx.x % 32;
	i64 rows = a.B * a.H * a.Tq;
	for (i64 r = (i64)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += (i64)gridDim.x * WARPS) {
		i64 bh = r / a.Tq, i = r % a.Tq, b = bh / a.H, h = bh % a.H;
		const T *qi = q + b * a.q[0] + h * a.q[1] + i * a.q[2];
		const T *kb = k + b * a.k[0] + h * a.k[1];
		const T *vb = v + b * a.v[0] + h * a.v[1];
		T acc[ATTN_LANE_DIMS];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) acc[c] = 0;
		double m = -INFINITY, l = 0;
		i64 n = keys_seen(a, i);
		for (i64 j = 0; j < n; j++) {
			if (key_masked(a, b, j)) continue;
			double s = (double)warp_dot(qi, kb + j * a.k[2], a.D) * a.scale;
			double mn = s > m ? s : m;
			double corr = exp(m - mn), p = exp(s - mn);
			l = l * corr + p;
			m = mn;
			T pw = (T)(p * keep_scale(a, bh, i, j));
			const T *vj = vb + j * a.v[2];
			for (int c = 0; c < ATTN_LANE_DIMS; c++) {
				i64 d = lane + 32 * c;
				if (d < a.Dv) acc[c] = acc[c] * (T)corr + pw * vj[d];
			}
		}
		T *oi = out + b * a.o[0] + h * a.o[1] + i * a.o[2];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) {
			i64 d = lane + 32 * c;
			if (d < a.Dv) oi[d] = l > 0 ? (T)((double)acc[c] / l) : (T)0;
		}
		if (lane == 0) lse[r] = l > 0 ? (T)(m + log(l)) : (T)INFINITY;
	}
}
extern "C" __global__ void attn_fwd_f32(float *out, float *lse, const float *q, const float *k, const float *v, Attn a) { attn_fwd(out, lse, q, k, v, a); }
extern "C" __global__ void attn_fwd_f64(double *out, double *lse, const double *q, const double *k, const double *v, Attn a) { attn_fwd(out, lse, q, k, v, a); }

// AttnGrad adds the strides of dq, dk, dv, the upstream gradient and the output.
struct AttnGrad {
	Attn a;
	i64 dq[3], dk[3], dv[3], g[3];
};

// weight recomputes P (before dropout) and dS of pair (i, j) given D_i = Σ dO_i·O_i:
// dS = P·(Z·dO_i·v_j − D_i).
template <typename T> __device__ __forceinline__ void pair_grad(const AttnGrad &w, const T *qi, const T *kj, const T *gi, const T *vj, T lse, T di, i64 bh, i64 i, i64 j, T *p, T *pd, T *ds) {
	const Attn &a = w.a;
	double s = (double)warp_dot(qi, kj, a.D) * a.scale;
	double pr = exp(s - (double)lse), z = keep_scale(a, bh, i, j);
	double dp = (double)warp_dot(gi, vj, a.Dv) * z;
	*p = (T)pr;
	*pd = (T)(pr * z);
	*ds = (T)(pr * (dp - (double)di));
}

// attn_grad_q: one warp per query row: D_i into drow and dQ_i = Scale·Σ_j dS_ij·k_j.
template <typename T> __device__ void attn_grad_q(T *dq, T *drow, const T *g, const T *o, const T *lse, const T *q, const T *k, const T *v, AttnGrad w) {
	const Attn &a = w.a;
	int lane = threadIdx.x % 32;
	i64 rows = a.B * a.H * a.Tq;
	for (i64 r = (i64)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += (i64)gridDim.x * WARPS) {
		i64 bh = r / a.Tq, i = r % a.Tq, b = bh / a.H, h = bh % a.H;
		const T *qi = q + b * a.q[0] + h * a.q[1] + i * a.q[2];
		const T *gi = g + b * w.g[0] + h * w.g[1] + i * w.g[2];
		const T *oi = o + b * a.o[0] + h * a.o[1] + i * a.o[2];
		T di = warp_dot(gi, oi, a.Dv);
		if (lane == 0) drow[r] = di;
		T acc[ATTN_LANE_DIMS];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) acc[c] = 0;
		i64 n = isinf((double)lse[r]) ? 0 : keys_seen(a, i); // a row that saw no key has no gradient
		for (i64 j = 0; j < n; j++) {
			if (key_masked(a, b, j)) continue;
			const T *kj = k + b * a.k[0] + h * a.k[1] + j * a.k[2];
			const T *vj = v + b * a.v[0] + h * a.v[1] + j * a.v[2];
			T p, pd, ds;
			pair_grad(w, qi, kj, gi, vj, lse[r], di, bh, i, j, &p, &pd, &ds);
			for (int c = 0; c < ATTN_LANE_DIMS; c++) {
				i64 d = lane + 32 * c;
				if (d < a.D) acc[c] += ds * kj[d];
			}
		}
		T *dqi = dq + b * w.dq[0] + h * w.dq[1] + i * w.dq[2];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) {
			i64 d = lane + 32 * c;
			if (d < a.D) dqi[d] = acc[c] * (T)a.scale;
		}
	}
}
extern "C" __global__ void attn_grad_q_f32(float *dq, float *drow, const float *g, const float *o, const float *lse, const float *q, const float *k, const float *v, AttnGrad w) {
	attn_grad_q(dq, drow, g, o, lse, q, k, v, w);
}
extern "C" __global__ void attn_grad_q_f64(double *dq, double *drow, const double *g, const double *o, const double *lse, const double *q, const double *k, const double *v, AttnGrad w) {
	attn_grad_q(dq, drow, g, o, lse, q, k, v, w);
}

// attn_grad_kv: one warp per key row j: dK_j = Scale·Σ_i dS_ij·q_i and dV_j = Σ_i Pd_ij·dO_i over
// the queries that see key j (run after attn_grad_q, which wrote D).
template <typename T> __device__ void attn_grad_kv(T *dk, T *dv, const T *drow, const T *g, const T *lse, const T *q, const T *k, const T *v, AttnGrad w) {
	const Attn &a = w.a;
	int lane = threadIdx.x % 32;
	i64 rows = a.B * a.H * a.Tk;
	for (i64 r = (i64)blockIdx.x * WARPS + threadIdx.x / 32; r < rows; r += (i64)gridDim.x * WARPS) {
		i64 bh = r / a.Tk, j = r % a.Tk, b = bh / a.H, h = bh % a.H;
		const T *kj = k + b * a.k[0] + h * a.k[1] + j * a.k[2];
		const T *vj = v + b * a.v[0] + h * a.v[1] + j * a.v[2];
		T ak[ATTN_LANE_DIMS], av[ATTN_LANE_DIMS];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) ak[c] = av[c] = 0;
		i64 first = key_masked(a, b, j) ? a.Tq : a.causal ? j : 0; // a masked key gets no gradient
		for (i64 i = first; i < a.Tq; i++) {
			const T *qi = q + b * a.q[0] + h * a.q[1] + i * a.q[2];
			const T *gi = g + b * w.g[0] + h * w.g[1] + i * w.g[2];
			i64 qr = bh * a.Tq + i;
			T p, pd, ds;
			pair_grad(w, qi, kj, gi, vj, lse[qr], drow[qr], bh, i, j, &p, &pd, &ds);
			for (int c = 0; c < ATTN_LANE_DIMS; c++) {
				i64 d = lane + 32 * c;
				if (d < a.D) ak[c] += ds * qi[d];
				if (d < a.Dv) av[c] += pd * gi[d];
			}
		}
		T *dkj = dk + b * w.dk[0] + h * w.dk[1] + j * w.dk[2];
		T *dvj = dv + b * w.dv[0] + h * w.dv[1] + j * w.dv[2];
		for (int c = 0; c < ATTN_LANE_DIMS; c++) {
			i64 d = lane + 32 * c;
			if (d < a.D) dkj[d] = ak[c] * (T)a.scale;
			if (d < a.Dv) dvj[d] = av[c];
		}
	}
}
extern "C" __global__ void attn_grad_kv_f32(float *dk, float *dv, const float *drow, const float *g, const float *lse, const float *q, const float *k, const float *v, AttnGrad w) {
	attn_grad_kv(dk, dv, drow, g, lse, q, k, v, w);
}
extern "C" __global__ void attn_grad_kv_f64(double *dk, double *dv, const double *drow, const double *g, const double *lse, const double *q, const double *k, const double *v, AttnGrad w) {
	attn_grad_kv(dk, dv, drow, g, lse, q, k, v, w);
}

// before is backend.TopKRow's order: a ranks ahead of b (NaN largest, ties by position).
template <typename T> __device__ __forceinline__ bool ranks_before(T x, i64 a, T y, i64 b, bool largest) {
	bool xn = x != x, yn = y != y;
	if (xn || yn) return (xn && yn) ? a < b : xn == largest;
	if (x == y) return a < b;
	return largest ? x > y : x < y;
}

// topk: one thread per (outer, inner) row, insertion into the sorted prefix written in place.
template <typename T> __device__ void topk(T *vals, i64 *idx, const T *src, i64 outer, i64 n, i64 inner, i64 k, int largest) {
	if (k == 0) return; // nothing to keep (the prefix's last entry, k-1, does not exist)
	GRID_STRIDE(t, outer * inner) {
		i64 o = t / inner, in = t % inner;
		i64 m = 0;
		for (i64 j = 0; j < n; j++) {
			T x = src[(o * n + j) * inner + in];
			if (m == k && !ranks_before(x, j, vals[(o * k + k - 1) * inner + in], idx[(o * k + k - 1) * inner + in], largest)) continue;
			i64 p = m < k ? m : k - 1;
			if (m < k) m++;
			while (p > 0) {
				i64 prev = (o * k + p - 1) * inner + in;
				if (!ranks_before(x, j, vals[prev], idx[prev], largest)) break;
				vals[prev + inner] = vals[prev];
				idx[prev + inner] = idx[prev];
				p--;
			}
			vals[(o * k + p) * inner + in] = x;
			idx[(o * k + p) * inner + in] = j;
		}
	}
}
extern "C" __global__ void topk_f32(float *vals, i64 *idx, const float *src, i64 outer, i64 n, i64 inner, i64 k, int largest) { topk(vals, idx, src, outer, n, inner, k, largest); }
extern "C" __global__ void topk_f64(double *vals, i64 *idx, const double *src, i64 outer, i64 n, i64 inner, i64 k, int largest) { topk(vals, idx, src, outer, n, inner, k, largest); }

enum { ERR_WEIGHTS = 3 };

// multinomial: one thread per row, backend.MultinomialRow's inverse CDF in double; without
// replacement the indices drawn so far count as zero weights. A bad row is reported.
template <typename T> __device__ void multinomial(i64 *dst, const T *probs, const double *u, i64 rows, i64 n, i64 samples, int replacement, i64 *err) {
	GRID_STRIDE(r, rows) {
		const T *w = probs + r * n;
		i64 *out = dst + r * samples;
		for (i64 s = 0; s < samples; s++) {
			double total = 0;
			bool bad = false;
			for (i64 j = 0; j < n; j++) {
				double x = (double)w[j];
				if (!(x >= 0) || isinf(x)) bad = true;
				bool taken = false;
				for (i64 t = 0; !replacement && t < s; t++) taken = taken || out[t] == j;
				if (!taken) total += x;
			}
			if (bad || !(total > 0)) {
				report(err, ERR_WEIGHTS, r, s, n);
				out[s] = 0;
				continue;
			}
			double target = u[r * samples + s] * total, acc = 0;
			i64 pick = -1;
			for (i64 j = 0; j < n; j++) {
				double x = (double)w[j];
				bool taken = false;
				for (i64 t = 0; !replacement && t < s; t++) taken = taken || out[t] == j;
				if (taken || x <= 0) continue;
				pick = j;
				acc += x;
				if (target < acc) break;
			}
			out[s] = pick;
		}
	}
}
extern "C" __global__ void multinomial_f32(i64 *dst, const float *probs, const double *u, i64 rows, i64 n, i64 samples, int replacement, i64 *err) {
	multinomial(dst, probs, u, rows, n, samples, replacement, err);
}
extern "C" __global__ void multinomial_f64(i64 *dst, const double *probs, const double *u, i64 rows, i64 n, i64 samples, int replacement, i64 *err) {
	multinomial(dst, probs, u, rows, n, samples, replacement, err);
}
