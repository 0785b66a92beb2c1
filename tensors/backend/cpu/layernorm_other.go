//go:build !(amd64 || arm64) || purego

package cpu

// lnRowsVector is false: on this platform layernorm.go's scalar loops do every row.
func lnRowsVector(int) bool { return false }

func lnDev([]float32, float64) float64                                    { panic("unreachable") }
func lnApply(_, _, _, _ []float32, _, _ float64)                          { panic("unreachable") }
func lnGradSums(_, _, _, _, _ []float32, _, _ float64) (float64, float64) { panic("unreachable") }
func lnGradDx(_, _, _, _ []float32, _, _, _, _ float64)                   { panic("unreachable") }
