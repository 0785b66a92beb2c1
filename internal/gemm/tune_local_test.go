package gemm

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestTuneLocal(t *testing.T) {
	if os.Getenv("GEMM_TUNE") == "" {
		t.Skip()
	}
	SetThreads(1)
	defer SetThreads(0)
	shapes := benchShapes()
	for _, kc := range []int{192, 256, 320, 384} {
		for _, mc := range []int{96, 144, 192, 288} {
			kcSteps, mcRows = kc, mc
			line := fmt.Sprintf("kc=%d mc=%d:", kc, mc)
			for _, si := range []int{2, 4, 6} {
				s := shapes[si]
				a, lda, bm, ldb, c := operands(s)
				best := time.Hour
				for r := 0; r < 15; r++ {
					t0 := time.Now()
					Sgemm(s.transA, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
					best = min(best, time.Since(t0))
				}
				line += fmt.Sprintf(" %s %.0f", s.name[:6], 2*float64(s.m*s.n*s.k)/best.Seconds()/1e9)
			}
			fmt.Println(line)
		}
	}
}
