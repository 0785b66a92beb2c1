// The emulated device's kernels: how a compiled kernel is registered under its PTX entry name,
// and how a launch runs it (emu_blocks.cc). Shared by the fake driver and the kernel registry
// that the build generates from the PTX's entry list (kernels_emu.cc).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "emu.h"

namespace emu {

// Param is one kernel parameter's size and alignment in bytes, and whether it is a pointer
// (which must point to device memory), as the C++ signature has it.
struct Param {
	size_t size, align;
	bool pointer;
};

// Kernel is a compiled kernel: call runs it as one CUDA thread with the parameter values args
// points to (one pointer per parameter, like cuLaunchKernel's kernelParams).
struct Kernel {
	const char *name;
	void (*call)(void *const *args);
	std::vector<Param> params;
	std::atomic<int> launches{0};
	Kernel *next;
};

// kernels is the registry's list head; register_kernel adds to it (from static initialisers).
Kernel *kernels();
void register_kernel(Kernel *k);
Kernel *find_kernel(const char *name);

template <typename... A, size_t... I> void invoke(void (*f)(A...), void *const *args, std::index_sequence<I...>) {
	f(*static_cast<std::remove_cvref_t<A> *>(args[I])...);
}

// Registrar registers F under name: `static emu::Registrar<copy_2> r_copy_2("copy_2");`.
template <auto F> struct Registrar {
	template <typename... A> static std::vector<Param> params(void (*)(A...)) {
		return {Param{sizeof(std::remove_cvref_t<A>), alignof(std::remove_cvref_t<A>), std::is_pointer_v<std::remove_cvref_t<A>>}...};
	}
	template <typename... A> static constexpr size_t arity(void (*)(A...)) { return sizeof...(A); }
	static void call(void *const *args) { invoke(F, args, std::make_index_sequence<arity(F)>{}); }
	Kernel k;
	explicit Registrar(const char *name) : k{name, &call, params(F), {}, nullptr} { register_kernel(&k); }
};

// Launch is one kernel launch: grid and block shapes and the parameter values (args points to
// one value per parameter, each aligned for its type).
struct Launch {
	const Kernel *kernel;
	dim3 grid, block;
	void *const *args;
};

// Failure is what went wrong in a launch (the block, the threads and what they did), for the
// first block that failed: nothing when error is empty; illegal_address when a thread reached
// outside its memory (fault), else the threads broke CUDA's rules of synchronisation.
struct Failure {
	std::string error;
	bool illegal_address = false;
};
Failure run(const Launch &l);

// Workers returns how many OS threads run blocks (FAKE_CUDA_THREADS, default the CPUs, at
// most 8); parallel_for runs body(i) for i in [0, n) on them.
int workers();
void parallel_for(size_t n, void (*body)(size_t i, void *ctx), void *ctx);

// current is the kernel, block and thread this OS thread is running, or null.
struct Running {
	const Kernel *kernel;
	uint3 block, thread;
};
const Running *current();

// fault ends the running block from a signal handler (an access outside device memory): the
// launch fails with why, and the OS thread goes on with its next block.
[[noreturn]] void fault(const std::string &why);

} // namespace emu
