//go:build arm64 && !purego

package cpu

// On arm64 the streaming kernels store with STNP, the non-temporal pair store (kernels_arm64.s).
// What we expect on Neoverse V2 and Apple M cores (we have timed neither: the project's machines
// are amd64): their load-store units detect a run of stores that fill whole cache lines and switch
// to a "write streaming" mode that already skips reading the lines before writing them, so a
// plain VST1 loop gets much of STNP's gain on a long cold output; STNP adds the hint not to keep
// the lines, which saves evicting the operands. It is kept for the case amd64 streams, a large
// output into memory the pool marks cold (backend.Buffer.Cold), so both platforms take the same
// path and give the same bits; warm outputs are stored through the cache as on amd64.

// haveStreamingStores is true: every arm64 CPU has STNP.
const haveStreamingStores = true

// haveFillF32 is true: fillF32 needs only NEON, which every arm64 CPU has.
const haveFillF32 = true

// sfence does nothing on arm64. SFENCE exists on x86 because its non-temporal stores escape the
// total store order its other stores keep; Arm's stores are all weakly ordered, STNP's no less
// than STR's, so STNP needs no barrier of its own. Another goroutine sees the stored output
// through Go's synchronization (a channel, a WaitGroup, a mutex), whose barriers order STNP's
// stores as they order every other store; a DMB here would only slow the kernel.
func sfence() {}
