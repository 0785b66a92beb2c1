//go:build linux || darwin

package shm

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// TestAllReduceVEqualsAllReduceOfTheConcatenation splits a buffer into pieces
// of awkward sizes (empty ones, pieces that straddle rounds and shares) and
// checks the in-place result, scaled to a mean, against AllReduce of the whole.
func TestAllReduceVEqualsAllReduceOfTheConcatenation(t *testing.T) {
	for _, p := range []int{2, 3} {
		for _, sizes := range [][]int{{1}, {0, 5, 0, 2}, {100, 1, 37, 0, 129}, {7, 300, 3}} {
			t.Run(fmt.Sprintf("p%d_%v", p, sizes), func(t *testing.T) {
				whole := regions(t, p, 256) // tiny slots force many rounds
				pieces := regions(t, p, 256)
				n := 0
				for _, s := range sizes {
					n += s
				}
				scale := 1 / float64(p)
				var wg sync.WaitGroup
				errs := make([]error, p)
				for r := 0; r < p; r++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						ref := make([]float32, n)
						for i := range ref {
							ref[i] = float32(i*(r+1)) / 3
						}
						var bufs [][]byte
						var parts [][]float32
						off := 0
						for _, s := range sizes {
							part := append([]float32(nil), ref[off:off+s]...)
							parts = append(parts, part)
							bufs = append(bufs, reduce.FromF32(part))
							off += s
						}
						if err := whole[r].AllReduce(context.Background(), reduce.FromF32(ref), reduce.Float32, reduce.Sum); err != nil {
							errs[r] = err
							return
						}
						reduce.Scale(reduce.Float32, reduce.FromF32(ref), scale)
						if err := pieces[r].AllReduceV(context.Background(), bufs, reduce.Float32, reduce.Sum, scale); err != nil {
							errs[r] = err
							return
						}
						off = 0
						for k, part := range parts {
							for i, v := range part {
								if v != ref[off+i] {
									errs[r] = fmt.Errorf("rank %d piece %d elem %d = %v; want %v (element %d of the whole)", r, k, i, v, ref[off+i], off+i)
									return
								}
							}
							off += len(part)
						}
					}()
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}
