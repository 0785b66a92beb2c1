// Fused optimizer updates and the gradient checks of clipping and loss scaling. The module is
// compiled without fused multiply-adds, so these round exactly as the CPU kernels do.
#pragma once
#include "common.cuh"

// AdamScalars and SGDScalars are laid out as package backend's structs of the same names.
struct AdamScalars {
	float b1, ob1, b2, ob2, bc2, eps, nss, shrink, l2;
};
struct SGDScalars {
	float lr, wd, mom, damp;
	unsigned char nesterov, first;
};

extern "C" __global__ void adam_f32(float *w, const float *g, float *m, float *v, i64 n, AdamScalars c) {
	GRID_STRIDE(i, n) {
		float gi = g[i], wi = w[i];
		if (c.l2 != 0) gi = gi + c.l2 * wi;
		float mi = m[i] * c.b1 + c.ob1 * gi;
		float vi = v[i] * c.b2 + (c.ob2 * gi) * gi;
		m[i] = mi;
		v[i] = vi;
		float d = sqrtf(vi) / c.bc2 + c.eps;
		w[i] = wi * c.shrink + c.nss * (mi / d);
	}
}

// sgd_f32: buf is null for plain SGD.
extern "C" __global__ void sgd_f32(float *w, const float *g, float *buf, i64 n, SGDScalars c) {
	GRID_STRIDE(i, n) {
		float gi = g[i], wi = w[i];
		if (c.wd != 0) gi = gi + c.wd * wi;
		if (buf) {
			float b = c.first ? gi : buf[i] * c.mom + c.damp * gi;
			buf[i] = b;
			gi = c.nesterov ? gi + c.mom * b : b;
		}
		w[i] = wi - c.lr * gi;
	}
}

// sumsq_f32 adds Σ x² (double) into dst[0].
extern "C" __global__ void sumsq_f32(double *dst, const float *x, i64 n) {
	double s = 0;
	GRID_STRIDE(i, n) {
		double v = (double)x[i];
		s += v * v;
	}
	s = block_reduce(s, Plus());
	if (threadIdx.x == 0) atomicAdd(dst, s);
}

// scale_check_f32 multiplies x by s in place and sets found[0] to 1 on an inf or NaN.
extern "C" __global__ void scale_check_f32(float *x, i64 n, float s, float *found) {
	GRID_STRIDE(i, n) {
		float v = x[i];
		if (!isfinite(v)) found[0] = 1.0f;
		x[i] = v * s;
	}
}

// AdadeltaScalars, RMSpropScalars and AdagradScalars are laid out as the device package's
// argument structs of the same names (package backend's, with bools as bytes).
struct AdadeltaScalars {
	float lr, rho, orho, eps, wd;
};
struct RMSpropScalars {
	float lr, alpha, oalpha, eps, wd, mom;
	unsigned char centered;
};
struct AdagradScalars {
	float clr, eps, wd;
};

// adadelta_f32: torch.optim.Adadelta's step, in its order of operations.
extern "C" __global__ void adadelta_f32(float *w, const float *g, float *sq, float *acc, i64 n, AdadeltaScalars c) {
	GRID_STRIDE(i, n) {
		float gi = g[i];
		if (c.wd != 0) gi = gi + c.wd * w[i];
		float s = sq[i] * c.rho + (c.orho * gi) * gi;
		sq[i] = s;
		float std = sqrtf(s + c.eps);
		float d = (sqrtf(acc[i] + c.eps) / std) * gi;
		acc[i] = acc[i] * c.rho + (c.orho * d) * d;
		w[i] = w[i] - c.lr * d;
	}
}

// rmsprop_f32: torch.optim.RMSprop's step; mom is null without momentum, avg without centering.
extern "C" __global__ void rmsprop_f32(float *w, const float *g, float *sq, float *mom, float *avg, i64 n, RMSpropScalars c) {
	GRID_STRIDE(i, n) {
		float gi = g[i];
		if (c.wd != 0) gi = gi + c.wd * w[i];
		float s = sq[i] * c.alpha + (c.oalpha * gi) * gi;
		sq[i] = s;
		float r;
		if (c.centered) {
			float m = avg[i] * c.alpha + c.oalpha * gi;
			avg[i] = m;
			r = sqrtf(s + (-m) * m);
		} else {
			r = sqrtf(s);
		}
		r = r + c.eps;
		float q = gi / r;
		if (c.mom > 0) {
			q = mom[i] * c.mom + q;
			mom[i] = q;
		}
		w[i] = w[i] - c.lr * q;
	}
}

// adagrad_f32: torch.optim.Adagrad's step (clr is the step's decayed rate).
extern "C" __global__ void adagrad_f32(float *w, const float *g, float *sum, i64 n, AdagradScalars c) {
	GRID_STRIDE(i, n) {
		float gi = g[i];
		if (c.wd != 0) gi = gi + c.wd * w[i];
		float s = sum[i] + gi * gi;
		sum[i] = s;
		float r = sqrtf(s) + c.eps;
		w[i] = w[i] - c.clr * (gi / r);
	}
}
