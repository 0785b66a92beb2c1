//go:build arm64 && !purego

package cpu

//go:noescape
func f32ToBF16NEON(dst *uint16, src *float32, n int)

// bf16Lanes is the NEON kernel's step: f32ToBF16 hands it a multiple of 8 elements.
const bf16Lanes = 8

// haveBF16Vec is true: the NEON kernel runs on every arm64 CPU.
const haveBF16Vec = true

// f32ToBF16Vec is bf16_vector.go's kernel: kernels_arm64.s's, n a positive multiple of 8.
func f32ToBF16Vec(dst *uint16, src *float32, n int) { f32ToBF16NEON(dst, src, n) }
