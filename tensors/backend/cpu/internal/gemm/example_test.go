package gemm_test

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
)

func ExampleSgemm() {
	a := []float32{1, 2, 3, 4, 5, 6} // 2×3
	b := []float32{1, 0, 0, 1, 1, 1} // 3×2
	c := make([]float32, 4)          // 2×2
	gemm.Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [4 5 10 11]
}

func ExampleSgemmBF16() {
	a := []uint16{half.F32ToBF16(1.5), half.F32ToBF16(-2)} // 1×2
	b := []uint16{half.F32ToBF16(4), half.F32ToBF16(0.25)} // 2×1
	c := []float32{10}
	gemm.SgemmBF16(false, false, 1, 1, 2, 1, a, 2, b, 1, 1, c, 1) // c = a·b + c
	fmt.Println(c)
	// Output: [15.5]
}
