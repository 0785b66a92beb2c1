// emu_test checks the emulation of CUDA C++ itself, with kernels written for it (goaccel's own
// use only part of CUDA: full-mask shuffles, no votes): barriers and their divergence, shuffles of
// every form with widths and partial masks, votes, __syncwarp, atomics across blocks, __shared__
// memory per block, half-precision conversions. Each check prints a line; the exit status is
// the number of failed checks. fakelib's tests build and run it.
#include <stdio.h>
#include <string.h>

#include <string>

#include "kernel.h"

// The compiler's own float16, the reference of the conversions: _Float16 (GCC's C++ has it on
// x86-64), or __fp16 on aarch64 (IEEE half there; GCC 12's C++ has no _Float16 for aarch64).
#if defined(__aarch64__)
typedef __fp16 half_ref;
#else
typedef _Float16 half_ref;
#endif

namespace {

int failures;

void check(bool ok, const char *what, const std::string &detail = "") {
	printf("%s: %s%s%s\n", ok ? "ok" : "FAIL", what, detail.empty() ? "" : ": ", detail.c_str());
	if (!ok) failures++;
}

// launch runs kernel f over grid×block with the given parameter pointers.
template <typename... A> emu::Failure launch(void (*f)(A...), dim3 grid, dim3 block, A... args) {
	static void (*fn)(A...);
	fn = f;
	struct Call {
		static void call(void *const *p) { emu::invoke(fn, p, std::index_sequence_for<A...>{}); }
	};
	emu::Kernel k{"test", &Call::call, {}, {}, nullptr};
	void *ptrs[] = {&args..., nullptr};
	return emu::run(emu::Launch{&k, grid, block, ptrs});
}

bool has(const emu::Failure &f, const char *s) { return f.error.find(s) != std::string::npos; }

// ---- kernels ----

void block_sum(const int *in, int *out) {
	__shared__ int sh[256];
	sh[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

void divergent_barrier(int *) {
	if (threadIdx.x < 64) {
		__syncthreads();
	} else {
		__syncthreads();
	}
}

void early_exit(int *) {
	if (threadIdx.x == 5) return;
	__syncthreads();
}

void shuffles(int *out, int width) {
	int l = threadIdx.x % 32, o = threadIdx.x * 5;
	out[o] = __shfl_sync(0xffffffffu, l * 10, 3, width);
	out[o + 1] = __shfl_up_sync(0xffffffffu, l * 10, 2, width);
	out[o + 2] = __shfl_down_sync(0xffffffffu, l * 10, 2, width);
	out[o + 3] = __shfl_xor_sync(0xffffffffu, l * 10, 1, width);
	out[o + 4] = (int)__shfl_xor_sync(0xffffffffu, (double)l + 0.5, 16, width) * 100; // 8-byte values
}

// Two half-warps take different paths, each shuffling within its own mask.
void partial_masks(int *out) {
	int l = threadIdx.x;
	if (l < 16) out[l] = __shfl_down_sync(0x0000ffffu, l, 1, 16);
	else out[l] = __shfl_xor_sync(0xffff0000u, l, 2);
}

void reads_outside_mask(int *out) {
	if (threadIdx.x < 16) out[threadIdx.x] = __shfl_sync(0x0000ffffu, 1, 20); // lane 20 is not in the mask
}

void mask_disagrees(int *out) {
	unsigned m = threadIdx.x < 8 ? 0x0000ffffu : 0xffffffffu;
	out[threadIdx.x] = __shfl_xor_sync(m, 1, 1);
}

void lane_exits(int *out) {
	if (threadIdx.x == 7) return;
	out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, 1, 1);
}

void votes(unsigned *out) {
	int l = threadIdx.x;
	out[l * 4] = __ballot_sync(0xffffffffu, l % 3 == 0);
	out[l * 4 + 1] = __any_sync(0xffffffffu, l == 31);
	out[l * 4 + 2] = __all_sync(0xffffffffu, l < 31);
	if (l >= 8) out[l * 4 + 3] = __ballot_sync(0xffffff00u, l % 2);
	__syncwarp();
}

void atomics(float *sum, unsigned long long *first, unsigned *count) {
	atomicAdd(sum, 0.5f);
	atomicCAS(first, 0ull, (unsigned long long)(blockIdx.x * blockDim.x + threadIdx.x + 1));
	atomicInc(count, 1000000);
}

// Each block fills its own __shared__ array with its index and reads it back after a barrier:
// with blocks running at once on several OS threads, another block's values must never show.
void shared_per_block(int *bad) {
	__shared__ int sh[128];
	for (int r = 0; r < 50; r++) {
		sh[threadIdx.x] = (int)blockIdx.x;
		__syncthreads();
		if (sh[(threadIdx.x + 1) % blockDim.x] != (int)blockIdx.x) atomicAdd(bad, 1);
		__syncthreads();
	}
}

void traps(int *) {
	if (threadIdx.x == 3) __trap();
}

} // namespace

int main() {
	printf("emu_test on %d threads\n", emu::workers());
	{
		int in[4 * 256], out[4] = {};
		for (int i = 0; i < 4 * 256; i++) in[i] = i;
		emu::Failure f = launch(block_sum, dim3(4), dim3(256), (const int *)in, (int *)out);
		bool ok = f.error.empty();
		for (int b = 0; b < 4; b++) ok = ok && out[b] == 256 * 256 * b + 255 * 128;
		check(ok, "a block reduction through __shared__ memory and __syncthreads", f.error);
	}
	{
		int x = 0;
		emu::Failure f = launch(divergent_barrier, dim3(2), dim3(128), &x);
		check(has(f, "reach different __syncthreads") && has(f, "emu_test.cc"), "threads at different __syncthreads fail the launch", f.error);
		f = launch(early_exit, dim3(1), dim3(64), &x);
		check(has(f, "thread (5,0,0)") && (has(f, "exits while") || has(f, "have exited")), "a thread that exits while others wait at __syncthreads fails the launch", f.error);
		f = launch(traps, dim3(1), dim3(32), &x);
		check(has(f, "__trap"), "__trap fails the launch", f.error);
	}
	for (int width : {32, 8}) {
		int out[64 * 5];
		memset(out, -1, sizeof out);
		emu::Failure f = launch(shuffles, dim3(1), dim3(64), (int *)out, width);
		bool ok = f.error.empty();
		for (int t = 0; t < 64 && ok; t++) {
			int l = t % 32, base = l & ~(width - 1);
			int want[5] = {(base + 3 % width) * 10, (l - 2 >= base ? l - 2 : l) * 10, (l + 2 < base + width ? l + 2 : l) * 10,
				((l ^ 1) < base + width ? l ^ 1 : l) * 10, (int)(((l ^ 16) < base + width ? l ^ 16 : l) + 0.5) * 100};
			for (int k = 0; k < 5; k++)
				if (out[t * 5 + k] != want[k]) {
					ok = false;
					f.error = "thread " + std::to_string(t) + " form " + std::to_string(k) + ": " + std::to_string(out[t * 5 + k]) + ", want " + std::to_string(want[k]);
				}
		}
		check(ok, width == 32 ? "shuffles of every form across the warp" : "shuffles of every form within segments of 8 lanes", f.error);
	}
	{
		int out[32];
		emu::Failure f = launch(partial_masks, dim3(1), dim3(32), (int *)out);
		bool ok = f.error.empty();
		for (int l = 0; l < 32; l++) ok = ok && out[l] == (l < 16 ? (l + 1 < 16 ? l + 1 : l) : (l ^ 2));
		check(ok, "two half-warps shuffle within their own partial masks", f.error);
		f = launch(reads_outside_mask, dim3(1), dim3(32), (int *)out);
		check(has(f, "reads lane 20") && has(f, "not in the mask"), "a shuffle that reads a lane outside its mask fails the launch", f.error);
		f = launch(mask_disagrees, dim3(1), dim3(32), (int *)out);
		check(has(f, "disagree") || has(f, "leaves it out"), "lanes with different masks for one shuffle fail the launch", f.error);
		f = launch(lane_exits, dim3(1), dim3(32), (int *)out);
		check(has(f, "thread (7,0,0)") || has(f, "0x80"), "a lane that exits while its warp waits for it fails the launch", f.error);
	}
	{
		unsigned out[32 * 4] = {};
		emu::Failure f = launch(votes, dim3(1), dim3(32), (unsigned *)out);
		unsigned third = 0, odd = 0;
		for (int l = 0; l < 32; l++) {
			if (l % 3 == 0) third |= 1u << l;
			if (l >= 8 && l % 2) odd |= 1u << l;
		}
		bool ok = f.error.empty();
		for (int l = 0; l < 32; l++) ok = ok && out[l * 4] == third && out[l * 4 + 1] == 1 && out[l * 4 + 2] == 0 && (l < 8 || out[l * 4 + 3] == odd);
		check(ok, "__ballot_sync, __any_sync, __all_sync (full and partial masks) and __syncwarp", f.error);
	}
	{
		float sum = 0;
		unsigned long long first = 0;
		unsigned count = 0;
		emu::Failure f = launch(atomics, dim3(64), dim3(128), &sum, &first, &count);
		check(f.error.empty() && sum == 64 * 128 * 0.5f && first >= 1 && first <= 64 * 128 && count == 64 * 128, "atomics from every block at once",
			f.error + " sum " + std::to_string(sum) + " count " + std::to_string(count));
		int bad = 0;
		f = launch(shared_per_block, dim3(64), dim3(128), &bad);
		check(f.error.empty() && bad == 0, "__shared__ memory is each block's own", f.error + " " + std::to_string(bad) + " foreign reads");
	}
	{
		bool ok = true;
		std::string why;
		for (uint32_t h = 0; h < 0x10000 && ok; h++) {
			float f = emu::f16_bits_to_f32((uint16_t)h);
			half_ref g;
			uint16_t gb = (uint16_t)h;
			memcpy(&g, &gb, 2);
			uint32_t a, b;
			float gf = (float)g;
			memcpy(&a, &f, 4);
			memcpy(&b, &gf, 4);
			if (a != b && !(f != f && gf != gf)) ok = false, why = "f16 " + std::to_string(h) + " widens wrong";
		}
		for (uint64_t i = 0; i < (1ull << 32) && ok; i += 4093) { // every 4093rd float32 bit pattern
			uint32_t bits = (uint32_t)i;
			float f;
			memcpy(&f, &bits, 4);
			half_ref g = (half_ref)f;
			uint16_t want, got = emu::f32_to_f16_bits(f);
			memcpy(&want, &g, 2);
			if (f != f) want = got; // NaN payloads: only NaN-ness is checked
			if (got != want) ok = false, why = "f32 bits " + std::to_string(bits) + " round to f16 " + std::to_string(got) + ", want " + std::to_string(want);
			// bfloat16: the nearer of the two neighbours that keep the top 16 bits, the even one
			// on a tie (infinity past the largest).
			if (f == f && fabsf(f) < 3.38e38f) {
				uint32_t t = bits >> 16, lo = t << 16, hi = (t + 1) << 16;
				float fl, fh;
				memcpy(&fl, &lo, 4);
				memcpy(&fh, &hi, 4);
				double dl = fabs((double)f - fl), dh = fabs((double)fh - f);
				uint16_t want16 = (uint16_t)(dl < dh || (dl == dh && !(t & 1)) ? t : t + 1);
				if (emu::f32_to_bf16_bits(f) != want16) ok = false, why = "f32 bits " + std::to_string(bits) + " round to bf16 " + std::to_string(emu::f32_to_bf16_bits(f));
			}
		}
		check(ok, "float16 conversions bit for bit against GCC's _Float16, bfloat16 to the nearer neighbour (ties to even)", why);
	}
	printf("%d failed\n", failures);
	return failures;
}
