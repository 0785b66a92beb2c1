package tensors

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// defaultSeed is PyTorch's default CPU seed, so an unseeded process is still reproducible.
const defaultSeed = 67280421310721

// Generator is a seeded pseudo-random source (PCG) for tensors and data shuffling. It is safe
// for concurrent use.
type Generator struct {
	mu  sync.Mutex
	src *rand.PCG
	rng *rand.Rand
}

var defaultGen = NewGenerator(defaultSeed)

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	g := &Generator{}
	g.Seed(seed)
	return g
}

// ManualSeed reseeds the process-wide generator used by Randn, Rand, RandInt and Dropout.
func ManualSeed(seed uint64) { defaultGen.Seed(seed) }

// DefaultGenerator returns the process-wide generator.
func DefaultGenerator() *Generator { return defaultGen }

// Seed resets the generator to the stream for seed.
func (g *Generator) Seed(seed uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.src = rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	g.rng = rand.New(g.src)
}

// Perm returns a random permutation of 0..n-1.
func (g *Generator) Perm(n int) []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rng.Perm(n)
}

// Float64 returns a uniform value in [0, 1).
func (g *Generator) Float64() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rng.Float64()
}

// Uint64 returns a uniform 64-bit value.
func (g *Generator) Uint64() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rng.Uint64()
}

// Randn returns a float32 tensor of standard normal samples.
func (g *Generator) Randn(shape ...int) *Tensor {
	checkShape("Randn", shape)
	t := empty(Float32, CPU, shape...)
	g.mu.Lock()
	defer g.mu.Unlock()
	d := hostF32(t.buf())
	for i := range d {
		d[i] = float32(g.rng.NormFloat64())
	}
	return t
}

// Rand returns a float32 tensor of uniform samples in [0, 1).
func (g *Generator) Rand(shape ...int) *Tensor {
	checkShape("Rand", shape)
	t := empty(Float32, CPU, shape...)
	g.mu.Lock()
	defer g.mu.Unlock()
	d := hostF32(t.buf())
	for i := range d {
		d[i] = g.rng.Float32()
	}
	return t
}

// dropoutMask returns a float32 tensor on the CPU of Dropout's mask: scale where a uniform draw
// is below keep, else 0. It draws as Rand does, one Float32 per element, and gives the bits of
// Rand's draws compared with keep, converted and multiplied by scale, in one pass.
//
// The loop takes the PCG source's words itself, as rand.Rand.Float32 does (the top 32 bits, of
// which the low 24 are the draw u, read as u / 2²⁴), and compares without a branch (a kept
// element's branch mispredicts as often as the mask is random): u / 2²⁴ < keep exactly when
// u < ⌈keep · 2²⁴⌉, since u is an integer and keep · 2²⁴ exact.
func (g *Generator) dropoutMask(keep, scale float32, shape ...int) *Tensor {
	t := empty(Float32, CPU, shape...)
	g.mu.Lock()
	defer g.mu.Unlock()
	d := hostF32(t.buf())
	below := dropoutBelow(keep)
	bits := math.Float32bits(scale)
	for i := range d {
		u := int32(uint32(g.src.Uint64()>>32) << 8 >> 8)
		kept := uint32((u - below) >> 31) // all ones where u < below
		d[i] = math.Float32frombits(bits & kept)
	}
	return t
}

// dropoutBelow is the draw (an integer u of [0, 2²⁴), read as u / 2²⁴) from which Dropout drops:
// u / 2²⁴ < keep exactly when u < dropoutBelow(keep), for keep in [0, 1].
func dropoutBelow(keep float32) int32 { return int32(math.Ceil(float64(keep) * (1 << 24))) }

// RandInt returns an int64 tensor of uniform integers in [low, high).
func (g *Generator) RandInt(low, high int64, shape ...int) *Tensor {
	if high <= low {
		panic(fmt.Sprintf("tensors: RandInt: empty range [%d, %d)", low, high))
	}
	checkShape("RandInt", shape)
	t := empty(Int64, CPU, shape...)
	g.mu.Lock()
	defer g.mu.Unlock()
	d := hostI64(t.buf())
	for i := range d {
		d[i] = low + g.rng.Int64N(high-low)
	}
	return t
}

// State returns the generator's state for checkpoints.
func (g *Generator) State() []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	b, err := g.src.MarshalBinary()
	if err != nil { // PCG's MarshalBinary cannot fail; keep the invariant visible.
		panic(fmt.Sprintf("tensors: Generator.State: %v", err))
	}
	return b
}

// SetState restores a state returned by State.
func (g *Generator) SetState(state []byte) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	src := rand.NewPCG(0, 0)
	if err := src.UnmarshalBinary(state); err != nil {
		return fmt.Errorf("tensors: Generator.SetState: not a state from Generator.State: %w", err)
	}
	g.src = src
	g.rng = rand.New(src)
	return nil
}

// Randn returns standard normal samples from the process-wide generator.
func Randn(shape ...int) *Tensor { return defaultGen.Randn(shape...) }

// Rand returns uniform [0, 1) samples from the process-wide generator.
func Rand(shape ...int) *Tensor { return defaultGen.Rand(shape...) }

// RandInt returns uniform int64 values in [low, high) from the process-wide generator.
func RandInt(low, high int64, shape ...int) *Tensor { return defaultGen.RandInt(low, high, shape...) }
