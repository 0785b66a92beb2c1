//go:build amd64 && !purego

package cpu

//go:noescape
func f32ToBF16AVX512(dst *uint16, src *float32, n int)

// bf16Lanes is the AVX-512 kernel's width: f32ToBF16 hands it a multiple of 16 elements.
const bf16Lanes = 16

// haveBF16Vec reports whether bf16_amd64.s's kernel runs on this CPU (AVX-512).
var haveBF16Vec = haveAVX512

// f32ToBF16Vec is bf16_vector.go's kernel: bf16_amd64.s's, n a positive multiple of 16.
func f32ToBF16Vec(dst *uint16, src *float32, n int) { f32ToBF16AVX512(dst, src, n) }
