// The fake cuBLAS (libcublas.so.13; libcublasLt.so.13 is the same file, which goaccel only
// loads as cuBLAS's dependency): the strided batched products goaccel calls, checked as cuBLAS
// checks them and computed for real on the handle's stream, column-major, with float32
// accumulation (float64 for DGEMM) in a fixed order per element.
//
// Statuses: CUBLAS_STATUS_INVALID_VALUE (7) for negative sizes or batch counts, a transpose
// other than N, T or C, a leading dimension below max(1, rows), an unknown data or compute type;
// CUBLAS_STATUS_NOT_SUPPORTED (15) for a combination of types GemmEx does not run;
// CUBLAS_STATUS_NOT_INITIALIZED (1) for a null handle. An operand outside device memory faults
// when the product runs, as on a GPU: the stream's sticky CUDA_ERROR_ILLEGAL_ADDRESS.
#include <stdio.h>
#include <string.h>

#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "emu/emu.h"
#include "emu/kernel.h"
#include "fake.h"

using namespace fake;

namespace {

enum { ST_OK = 0, ST_NOT_INITIALIZED = 1, ST_INVALID_VALUE = 7, ST_EXECUTION_FAILED = 13, ST_NOT_SUPPORTED = 15 };
enum { R32F = 0, R64F = 1, R16F = 2, R16BF = 14 };

struct Handle {
	int device;
	uintptr_t stream = 0;
	int math = 0;
};
std::mutex mu;
std::set<Handle *> handles;

Handle *handle_of(void *h) {
	std::lock_guard<std::mutex> lk(mu);
	return handles.count((Handle *)h) ? (Handle *)h : nullptr;
}

size_t type_size(int t) { return t == R64F ? 8 : t == R32F ? 4 : 2; }

double load(const void *p, int t, size_t i) {
	switch (t) {
	case R32F: return ((const float *)p)[i];
	case R64F: return ((const double *)p)[i];
	case R16F: return emu::f16_bits_to_f32(((const uint16_t *)p)[i]);
	}
	return emu::bf16_bits_to_f32(((const uint16_t *)p)[i]);
}

void store(void *p, int t, size_t i, double v) {
	switch (t) {
	case R32F: ((float *)p)[i] = (float)v; return;
	case R64F: ((double *)p)[i] = v; return;
	case R16F: ((uint16_t *)p)[i] = emu::f32_to_f16_bits((float)v); return;
	}
	((uint16_t *)p)[i] = emu::f32_to_bf16_bits((float)v);
}

// Gemm is one product, with its operands described as cuBLAS takes them.
struct Gemm {
	const char *call;
	int ta, tb, m, n, k;
	double alpha, beta;
	uintptr_t a, b, c;
	int at, bt, ct;
	int lda, ldb, ldc;
	long long sa, sb, sc;
	int batch;
	bool f64; // accumulate in double
};

// span is the bytes a column-major operand of rows×cols (ld apart, stride between batches) covers.
size_t span(int rows, int cols, int ld, long long stride, int batch, int t) {
	if (rows == 0 || cols == 0 || batch == 0) return 0;
	return ((size_t)(batch - 1) * (size_t)(stride > 0 ? stride : 0) + (size_t)(cols - 1) * ld + rows) * type_size(t);
}

// The product of one batch over a panel of C's columns: op(A) and op(B) packed column-major
// (m×k and k×n) in the accumulation type, each element summed over p in order.
template <typename Acc> struct Panel {
	const Gemm *g;
	const Acc *a, *b; // packed op(A), op(B) of the batch
	void *c;          // the batch's C
};

// On x86-64 the product has an AVX2 clone besides the baseline one (the same arithmetic, each
// operation rounded: -ffp-contract=off); target_clones names x86 targets only, and an aarch64
// build has NEON in its baseline.
#if defined(__x86_64__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

template <typename Acc> CLONES void columns(const Panel<Acc> &p, int j0, int j1) {
	const Gemm &g = *p.g;
	constexpr int kRows = 64;
	Acc acc[8][kRows];
	for (int i0 = 0; i0 < g.m; i0 += kRows) {
		int ni = g.m - i0 < kRows ? g.m - i0 : kRows;
		for (int jb = j0; jb < j1; jb += 8) {
			int nj = j1 - jb < 8 ? j1 - jb : 8;
			for (int jj = 0; jj < nj; jj++)
				for (int i = 0; i < ni; i++) acc[jj][i] = 0;
			for (int q = 0; q < g.k; q++) {
				const Acc *ac = p.a + (size_t)q * g.m + i0;
				for (int jj = 0; jj < nj; jj++) {
					Acc bv = p.b[(size_t)(jb + jj) * g.k + q];
					Acc *r = acc[jj];
					for (int i = 0; i < ni; i++) r[i] += ac[i] * bv;
				}
			}
			for (int jj = 0; jj < nj; jj++)
				for (int i = 0; i < ni; i++) {
					size_t ci = (size_t)(jb + jj) * g.ldc + i0 + i;
					double old = g.beta == 0 ? 0 : load(p.c, g.ct, ci);
					store(p.c, g.ct, ci, g.alpha * (double)acc[jj][i] + g.beta * old);
				}
		}
	}
}

template <typename Acc> void run_gemm(const Gemm &g) {
	std::vector<Acc> pa((size_t)g.m * g.k), pb((size_t)g.k * g.n);
	for (int bi = 0; bi < g.batch; bi++) {
		const void *a = (const char *)g.a + (size_t)bi * g.sa * type_size(g.at);
		const void *b = (const char *)g.b + (size_t)bi * g.sb * type_size(g.bt);
		void *c = (char *)g.c + (size_t)bi * g.sc * type_size(g.ct);
		for (int q = 0; q < g.k; q++)
			for (int i = 0; i < g.m; i++) pa[(size_t)q * g.m + i] = (Acc)load(a, g.at, g.ta ? (size_t)i * g.lda + q : (size_t)q * g.lda + i);
		for (int j = 0; j < g.n; j++)
			for (int q = 0; q < g.k; q++) pb[(size_t)j * g.k + q] = (Acc)load(b, g.bt, g.tb ? (size_t)q * g.ldb + j : (size_t)j * g.ldb + q);
		Panel<Acc> p{&g, pa.data(), pb.data(), c};
		constexpr int kCols = 32;
		struct Ctx {
			Panel<Acc> *p;
		} ctx{&p};
		size_t panels = ((size_t)g.n + kCols - 1) / kCols;
		emu::parallel_for(
			panels,
			[](size_t i, void *x) {
				Panel<Acc> &pp = *((Ctx *)x)->p;
				int j0 = (int)i * kCols, j1 = j0 + kCols < pp.g->n ? j0 + kCols : pp.g->n;
				columns(pp, j0, j1);
			},
			&ctx);
	}
}

// check is cuBLAS's argument checking of a strided batched product.
int check(const Gemm &g, std::string *why) {
	auto bad = [&](const std::string &s) {
		*why = s;
		return ST_INVALID_VALUE;
	};
	if (g.m < 0 || g.n < 0 || g.k < 0) return bad("a negative size");
	if (g.batch < 0) return bad("a negative batch count");
	if (g.ta < 0 || g.ta > 2 || g.tb < 0 || g.tb > 2) return bad("a transpose other than N, T or C");
	int rowsA = g.ta ? g.k : g.m, rowsB = g.tb ? g.n : g.k;
	if (g.lda < (rowsA > 1 ? rowsA : 1)) return bad("lda " + std::to_string(g.lda) + " < max(1, " + std::to_string(rowsA) + ")");
	if (g.ldb < (rowsB > 1 ? rowsB : 1)) return bad("ldb " + std::to_string(g.ldb) + " < max(1, " + std::to_string(rowsB) + ")");
	if (g.ldc < (g.m > 1 ? g.m : 1)) return bad("ldc " + std::to_string(g.ldc) + " < max(1, " + std::to_string(g.m) + ")");
	return ST_OK;
}

int gemm(void *hh, Gemm g) {
	rec("%s ta=%d tb=%d m=%d n=%d k=%d alpha=%g lda=%d sa=%lld ldb=%d sb=%lld beta=%g ldc=%d sc=%lld batch=%d types=%d,%d,%d", g.call, g.ta, g.tb, g.m, g.n,
		g.k, g.alpha, g.lda, g.sa, g.ldb, g.sb, g.beta, g.ldc, g.sc, g.batch, g.at, g.bt, g.ct);
	Handle *h = handle_of(hh);
	if (!h) return ST_NOT_INITIALIZED;
	std::string why;
	if (int st = check(g, &why); st != ST_OK) {
		rec("%s: CUBLAS_STATUS_INVALID_VALUE: %s", g.call, why.c_str());
		return st;
	}
	if (g.m == 0 || g.n == 0 || g.batch == 0) return ST_OK;
	CUresult r;
	Stream *s = stream_of(h->stream, &r);
	if (!s) return ST_EXECUTION_FAILED;
	// Where the operands are, checked now and reported when the product runs (as a GPU faults).
	std::string fault;
	int rowsA = g.ta ? g.k : g.m, colsA = g.ta ? g.m : g.k, rowsB = g.tb ? g.n : g.k, colsB = g.tb ? g.k : g.n;
	struct {
		const char *name;
		uintptr_t p;
		size_t n;
	} ops[] = {{"A", g.a, g.k ? span(rowsA, colsA, g.lda, g.sa, g.batch, g.at) : 0}, {"B", g.b, g.k ? span(rowsB, colsB, g.ldb, g.sb, g.batch, g.bt) : 0},
		{"C", g.c, span(g.m, g.n, g.ldc, g.sc, g.batch, g.ct)}};
	std::vector<Block> blocks;
	for (auto &o : ops) {
		Block b;
		if (o.n == 0) continue;
		if (!in_device(o.p, o.n, &b, &why)) {
			fault = std::string(g.call) + ": operand " + o.name + ": " + why;
			break;
		}
		if (b.device != h->device) {
			fault = std::string(g.call) + ": operand " + o.name + " is memory of cuda:" + std::to_string(b.device) + ", the handle's device is cuda:" + std::to_string(h->device);
			break;
		}
		blocks.push_back(b);
	}
	enqueue(s, [g, fault, blocks](std::string *detail) {
		if (sticky() != OK) return OK;
		Activity act(g.call);
		if (!fault.empty()) {
			*detail = fault;
			return (CUresult)ILLEGAL_ADDRESS;
		}
		if (g.k == 0) { // C = β·C
			for (int bi = 0; bi < g.batch; bi++)
				for (int j = 0; j < g.n; j++)
					for (int i = 0; i < g.m; i++) {
						size_t ci = (size_t)bi * g.sc + (size_t)j * g.ldc + i;
						store((void *)g.c, g.ct, ci, g.beta == 0 ? 0 : g.beta * load((void *)g.c, g.ct, ci));
					}
		} else if (g.f64) {
			run_gemm<double>(g);
		} else {
			run_gemm<float>(g);
		}
		for (const Block &b : blocks)
			if (std::string why = canaries(b); !why.empty()) {
				*detail = std::string(g.call) + " " + why;
				return (CUresult)ILLEGAL_ADDRESS;
			}
		return OK;
	});
	return ST_OK;
}

} // namespace

API int cublasCreate_v2(void **out) {
	rec("cublasCreate_v2");
	int d = current_device();
	if (d < 0) return ST_NOT_INITIALIZED;
	Handle *h = new Handle{d};
	std::lock_guard<std::mutex> lk(mu);
	handles.insert(h);
	*out = h;
	return ST_OK;
}
API int cublasDestroy_v2(void *hh) {
	std::lock_guard<std::mutex> lk(mu);
	if (!handles.erase((Handle *)hh)) return ST_NOT_INITIALIZED;
	delete (Handle *)hh;
	return ST_OK;
}
API int cublasSetStream_v2(void *hh, void *s) {
	rec("cublasSetStream_v2");
	Handle *h = handle_of(hh);
	if (!h) return ST_NOT_INITIALIZED;
	h->stream = (uintptr_t)s;
	return ST_OK;
}
API int cublasSetMathMode(void *hh, int mode) {
	rec("cublasSetMathMode %d", mode);
	Handle *h = handle_of(hh);
	if (!h) return ST_NOT_INITIALIZED;
	if ((mode & 0xf) > 3 && mode != 0x10) return ST_INVALID_VALUE;
	h->math = mode;
	return ST_OK;
}
API int cublasGetVersion_v2(void *hh, int *v) {
	if (!handle_of(hh)) return ST_NOT_INITIALIZED;
	*v = 130000;
	return ST_OK;
}
API const char *cublasGetStatusName(int s) {
	switch (s) {
	case ST_OK: return "CUBLAS_STATUS_SUCCESS";
	case ST_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
	case ST_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
	case ST_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
	case ST_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
	}
	return "CUBLAS_STATUS_UNKNOWN";
}

API int cublasSgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k, const float *alpha, const float *A, int lda, long long sa, const float *B,
	int ldb, long long sb, const float *beta, float *C, int ldc, long long sc, int batch) {
	return gemm(h, Gemm{"cublasSgemmStridedBatched", ta, tb, m, n, k, *alpha, *beta, (uintptr_t)A, (uintptr_t)B, (uintptr_t)C, R32F, R32F, R32F, lda, ldb,
		ldc, sa, sb, sc, batch, false});
}
API int cublasDgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k, const double *alpha, const double *A, int lda, long long sa,
	const double *B, int ldb, long long sb, const double *beta, double *C, int ldc, long long sc, int batch) {
	return gemm(h, Gemm{"cublasDgemmStridedBatched", ta, tb, m, n, k, *alpha, *beta, (uintptr_t)A, (uintptr_t)B, (uintptr_t)C, R64F, R64F, R64F, lda, ldb,
		ldc, sa, sb, sc, batch, true});
}

// The compute types of cublasComputeType_t.
enum { C16F = 64, C16F_PEDANTIC = 65, C32F = 68, C32F_PEDANTIC = 69, C32F_FAST_16F = 74, C32F_FAST_16BF = 75, C32F_FAST_TF32 = 77, C64F = 70, C64F_PEDANTIC = 71 };

API int cublasGemmStridedBatchedEx(void *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A, int at, int lda, long long sa,
	const void *B, int bt, int ldb, long long sb, const void *beta, void *C, int ct, int ldc, long long sc, int batch, int compute, int algo) {
	rec("cublasGemmStridedBatchedEx compute=%d algo=%d", compute, algo);
	auto known = [](int t) { return t == R32F || t == R64F || t == R16F || t == R16BF; };
	bool c32 = compute == C32F || compute == C32F_PEDANTIC || compute == C32F_FAST_16F || compute == C32F_FAST_16BF || compute == C32F_FAST_TF32;
	bool c64 = compute == C64F || compute == C64F_PEDANTIC, c16 = compute == C16F || compute == C16F_PEDANTIC;
	if (!known(at) || !known(bt) || !known(ct) || !(c32 || c64 || c16) || algo < -1 || algo > 115) {
		rec("cublasGemmStridedBatchedEx: CUBLAS_STATUS_INVALID_VALUE: an unknown data type, compute type or algorithm");
		return ST_INVALID_VALUE;
	}
	// The combinations of cublasGemmEx's table this fake runs (those goaccel might use).
	bool ok = (c32 && at == bt && ((at == R16BF && (ct == R16BF || ct == R32F)) || (at == R16F && (ct == R16F || ct == R32F)) || (at == R32F && ct == R32F))) ||
		(c64 && at == R64F && bt == R64F && ct == R64F) || (c16 && at == R16F && bt == R16F && ct == R16F);
	if (!ok) {
		rec("cublasGemmStridedBatchedEx: CUBLAS_STATUS_NOT_SUPPORTED: types A=%d B=%d C=%d with compute type %d", at, bt, ct, compute);
		return ST_NOT_SUPPORTED;
	}
	// α and β have the compute type's precision (float for the 32F types).
	double al = c64 ? *(const double *)alpha : c16 ? emu::f16_bits_to_f32(*(const uint16_t *)alpha) : *(const float *)alpha;
	double be = c64 ? *(const double *)beta : c16 ? emu::f16_bits_to_f32(*(const uint16_t *)beta) : *(const float *)beta;
	return gemm(h, Gemm{"cublasGemmStridedBatchedEx", ta, tb, m, n, k, al, be, (uintptr_t)A, (uintptr_t)B, (uintptr_t)C, at, bt, ct, lda, ldb, ldc, sa, sb, sc,
		batch, c64});
}
