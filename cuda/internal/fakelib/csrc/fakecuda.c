// A stand-in for libcuda.so.1, libcublas.so and libnccl.so.2 for tests on machines without a
// GPU: "device" memory is host memory, copies and memsets are memcpy/memset, cuBLAS products are
// naive loops, NCCL collectives are those of a single rank, and kernel launches are recorded but
// not run. Every call appends a line to a log the tests read (fake_log) to check that the Go
// bindings pass their arguments as the C prototypes expect.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

static char logbuf[1 << 20];
static size_t loglen;
static int init_error = -1;
static int launch_params;
static int param_bytes = 8;

static void rec(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(logbuf + loglen, sizeof logbuf - loglen - 1, fmt, ap);
	va_end(ap);
	if (n > 0 && loglen + n < sizeof logbuf - 2) {
		loglen += n;
		logbuf[loglen++] = '\n';
		logbuf[loglen] = 0;
	}
}

const char *fake_log(void) { return logbuf; }
void fake_reset(void) { loglen = 0; logbuf[0] = 0; }
void fake_set_init_error(int code) { init_error = code; }
void fake_set_launch_params(int n) { launch_params = n; }
void fake_set_param_bytes(int n) { param_bytes = n; }

/* ---- driver ---- */
typedef int CUresult;
typedef unsigned long long CUdeviceptr;

CUresult cuInit(unsigned flags) {
	rec("cuInit flags=%u", flags);
	if (init_error < 0) {
		const char *e = getenv("FAKE_CUDA_INIT_ERROR");
		init_error = e ? atoi(e) : 0;
	}
	return init_error;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) {
	static char buf[64];
	snprintf(buf, sizeof buf, "CUDA_ERROR_FAKE_%d", r);
	*s = buf;
	return 0;
}
CUresult cuGetErrorString(CUresult r, const char **s) { *s = "a fake error"; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 2; return 0; }
CUresult cuDeviceGet(int *d, int i) { *d = 10 + i; rec("cuDeviceGet %d", i); return 0; }
CUresult cuDeviceGetName(char *name, int len, int dev) { snprintf(name, len, "Fake GPU %d", dev); return 0; }
CUresult cuDeviceTotalMem_v2(size_t *n, int dev) { *n = (size_t)80 << 30; return 0; }
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
	*v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 16 ? 132 : 0;
	return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = (void *)(uintptr_t)(0xc0 + dev); rec("cuDevicePrimaryCtxRetain %d", dev); return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { return 0; }
CUresult cuCtxSetCurrent(void *ctx) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }

static size_t live_bytes;
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
	if (n > ((size_t)1 << 34)) return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
	void *m = calloc(1, n ? n : 1);
	*p = (CUdeviceptr)(uintptr_t)m;
	live_bytes += n;
	rec("cuMemAlloc_v2 %zu", n);
	return 0;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); rec("cuMemFree_v2"); return 0; }
CUresult cuMemGetInfo_v2(size_t *free_, size_t *total) { *free_ = (size_t)70 << 30; *total = (size_t)80 << 30; return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s) {
	memcpy((void *)(uintptr_t)dst, src, n);
	rec("cuMemcpyHtoDAsync_v2 %zu", n);
	return 0;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s) {
	memcpy(dst, (void *)(uintptr_t)src, n);
	rec("cuMemcpyDtoHAsync_v2 %zu", n);
	return 0;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s) {
	memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
	rec("cuMemcpyDtoDAsync_v2 %zu", n);
	return 0;
}
CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, void *s) {
	uint16_t *d = (uint16_t *)(uintptr_t)p;
	for (size_t i = 0; i < n; i++) d[i] = v;
	rec("cuMemsetD16Async %hu %zu", v, n);
	return 0;
}
CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, void *s) {
	uint32_t *d = (uint32_t *)(uintptr_t)p;
	for (size_t i = 0; i < n; i++) d[i] = v;
	rec("cuMemsetD32Async %u %zu", v, n);
	return 0;
}
CUresult cuStreamCreate(void **s, unsigned flags) { *s = (void *)0x5; rec("cuStreamCreate flags=%u", flags); return 0; }
CUresult cuStreamSynchronize(void *s) { rec("cuStreamSynchronize"); return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) { *e = (void *)0xe; return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { *ms = 1.5f; return 0; }
CUresult cuEventDestroy_v2(void *e) { return 0; }

struct fakefn { char name[128]; };
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals) {
	const char *ptx = image;
	rec("cuModuleLoadDataEx bytes=%zu options=%u first=%d", strlen(ptx), n, n ? opts[0] : -1);
	if (strstr(ptx, "FAKE_JIT_ERROR")) {
		for (unsigned i = 0; i < n; i++)
			if (opts[i] == 5) snprintf((char *)vals[i], 64, "ptxas fatal: fake syntax error");
		return 218; /* CUDA_ERROR_INVALID_PTX */
	}
	*m = (void *)0x3;
	return 0;
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
	struct fakefn *fn = calloc(1, sizeof *fn);
	snprintf(fn->name, sizeof fn->name, "%s", name);
	*f = fn;
	return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		unsigned shared, void *stream, void **params, void **extra) {
	char buf[8192];
	int n = snprintf(buf, sizeof buf, "cuLaunchKernel %s grid=%u,%u,%u block=%u,%u,%u shared=%u",
		((struct fakefn *)f)->name, gx, gy, gz, bx, by, bz, shared);
	for (int i = 0; i < launch_params && n < (int)sizeof buf - 32; i++) {
		if (param_bytes == 8) {
			n += snprintf(buf + n, sizeof buf - n, " p%d=%llx", i, *(unsigned long long *)params[i]);
			continue;
		}
		/* param_bytes/8 little-endian 64-bit words, in decimal (Shape and View structs) */
		n += snprintf(buf + n, sizeof buf - n, " p%d=", i);
		for (int w = 0; w < param_bytes / 8 && n < (int)sizeof buf - 32; w++)
			n += snprintf(buf + n, sizeof buf - n, "%s%lld", w ? "," : "", ((long long *)params[i])[w]);
	}
	rec("%s", buf);
	return 0;
}

/* ---- cuBLAS (column-major, naive) ---- */
int cublasCreate_v2(void **h) { *h = (void *)0xb1; rec("cublasCreate_v2"); return 0; }
int cublasDestroy_v2(void *h) { return 0; }
int cublasSetStream_v2(void *h, void *s) { rec("cublasSetStream_v2"); return 0; }
int cublasSetMathMode(void *h, int mode) { rec("cublasSetMathMode %d", mode); return 0; }
int cublasGetVersion_v2(void *h, int *v) { *v = 130000; return 0; }
const char *cublasGetStatusName(int s) { return "CUBLAS_STATUS_FAKE"; }

static float bf16f(uint16_t h) { uint32_t b = (uint32_t)h << 16; float f; memcpy(&f, &b, 4); return f; }
static double ld(const void *p, int type, long long i) {
	switch (type) {
	case 0: return ((const float *)p)[i];
	case 1: return ((const double *)p)[i];
	case 14: return bf16f(((const uint16_t *)p)[i]);
	}
	return 0; /* 16F is not needed by the tests */
}
static void gemm(const char *name, int ta, int tb, int m, int n, int k, double alpha, const void *A, int at, int lda, long long sa,
		const void *B, int bt, int ldb, long long sb, double beta, void *C, int ct, int ldc, long long sc, int batch) {
	rec("%s ta=%d tb=%d m=%d n=%d k=%d alpha=%g lda=%d sa=%lld ldb=%d sb=%lld beta=%g ldc=%d sc=%lld batch=%d types=%d,%d,%d",
		name, ta, tb, m, n, k, alpha, lda, sa, ldb, sb, beta, ldc, sc, batch, at, bt, ct);
	for (int b = 0; b < batch; b++)
		for (int j = 0; j < n; j++)
			for (int i = 0; i < m; i++) {
				double acc = 0;
				for (int p = 0; p < k; p++) {
					double a = ld(A, at, b * sa + (ta ? (long long)i * lda + p : (long long)p * lda + i));
					double bb = ld(B, bt, b * sb + (tb ? (long long)p * ldb + j : (long long)j * ldb + p));
					acc += a * bb;
				}
				long long ci = b * sc + (long long)j * ldc + i;
				double old = beta == 0 ? 0 : ld(C, ct, ci);
				if (ct == 0) ((float *)C)[ci] = (float)(alpha * acc + beta * old);
				else ((double *)C)[ci] = alpha * acc + beta * old;
			}
}
int cublasSgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k, const float *alpha, const float *A, int lda, long long sa,
		const float *B, int ldb, long long sb, const float *beta, float *C, int ldc, long long sc, int batch) {
	gemm("cublasSgemmStridedBatched", ta, tb, m, n, k, *alpha, A, 0, lda, sa, B, 0, ldb, sb, *beta, C, 0, ldc, sc, batch);
	return 0;
}
int cublasDgemmStridedBatched(void *h, int ta, int tb, int m, int n, int k, const double *alpha, const double *A, int lda, long long sa,
		const double *B, int ldb, long long sb, const double *beta, double *C, int ldc, long long sc, int batch) {
	gemm("cublasDgemmStridedBatched", ta, tb, m, n, k, *alpha, A, 1, lda, sa, B, 1, ldb, sb, *beta, C, 1, ldc, sc, batch);
	return 0;
}
int cublasGemmStridedBatchedEx(void *h, int ta, int tb, int m, int n, int k, const void *alpha, const void *A, int at, int lda, long long sa,
		const void *B, int bt, int ldb, long long sb, const void *beta, void *C, int ct, int ldc, long long sc, int batch,
		int compute, int algo) {
	rec("cublasGemmStridedBatchedEx compute=%d algo=%d", compute, algo);
	gemm("cublasGemmStridedBatchedEx", ta, tb, m, n, k, *(const float *)alpha, A, at, lda, sa, B, bt, ldb, sb,
		*(const float *)beta, C, ct, ldc, sc, batch);
	return 0;
}

/* ---- NCCL (one rank) ---- */
typedef struct { char internal[128]; } ncclUniqueId;
int ncclGetVersion(int *v) { *v = 22805; return 0; }
int ncclGetUniqueId(ncclUniqueId *id) { for (int i = 0; i < 128; i++) id->internal[i] = (char)(i * 7 + 1); return 0; }
int ncclCommInitRank(void **comm, int nranks, ncclUniqueId id, int rank) {
	unsigned sum = 0;
	for (int i = 0; i < 128; i++) sum = sum * 31 + (unsigned char)id.internal[i];
	rec("ncclCommInitRank nranks=%d rank=%d id0=%d id127=%d idsum=%u", nranks, rank, id.internal[0], id.internal[127], sum);
	*comm = (void *)0xcc;
	return 0;
}
int ncclCommAbort(void *c) { rec("ncclCommAbort"); return 0; }
int ncclCommDestroy(void *c) { rec("ncclCommDestroy"); return 0; }
int ncclCommGetAsyncError(void *c, int *r) { *r = 0; return 0; }
const char *ncclGetErrorString(int r) { return "fake nccl error"; }
static size_t nccl_size(int dt) { return dt == 6 || dt == 9 ? 2 : dt == 7 ? 4 : 8; }
int ncclAllReduce(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream) {
	rec("ncclAllReduce n=%zu dt=%d op=%d", n, dt, op);
	memmove(r, s, n * nccl_size(dt));
	return 0;
}
int ncclAllGather(const void *s, void *r, size_t n, int dt, void *comm, void *stream) {
	rec("ncclAllGather n=%zu dt=%d", n, dt);
	memmove(r, s, n * nccl_size(dt));
	return 0;
}
int ncclBroadcast(const void *s, void *r, size_t n, int dt, int root, void *comm, void *stream) {
	rec("ncclBroadcast n=%zu dt=%d root=%d", n, dt, root);
	memmove(r, s, n * nccl_size(dt));
	return 0;
}
int ncclReduceScatter(const void *s, void *r, size_t n, int dt, int op, void *comm, void *stream) {
	rec("ncclReduceScatter n=%zu dt=%d op=%d", n, dt, op);
	memmove(r, s, n * nccl_size(dt));
	return 0;
}
