package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// The collective helpers on 3 processes, checked on every rank.
func TestCollectiveHelpersOnThreeProcesses(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 3, func() {
		acc := newWithComm(withCfg(Config{}), group())
		r := acc.ProcessIndex()
		check := func(what string, got, want any) {
			if !reflect.DeepEqual(got, want) {
				panic(fmt.Sprintf("rank %d: %s = %v; want %v", r, what, got, want))
			}
		}
		// Rank r holds r+1 rows of [r, r].
		rows := make([]float32, 2*(r+1))
		for i := range rows {
			rows[i] = float32(r)
		}
		x := tensors.New(rows, r+1, 2)
		check("Gather", acc.Gather(x).Float32s(), []float32{0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2})
		check("Gather int64", acc.Gather(tensors.FromInt64([]int64{int64(r) << 40}, 1)).Int64s(), []int64{0, 1 << 40, 2 << 40})
		padded := acc.PadAcrossProcesses(x, 0, -1, false)
		first := acc.PadAcrossProcesses(x, 0, -1, true)
		check("PadAcrossProcesses shape", padded.Shape(), []int{3, 2})
		if r == 0 {
			check("PadAcrossProcesses values", padded.Float32s(), []float32{0, 0, -1, -1, -1, -1})
			check("padFirst", first.Float32s(), []float32{-1, -1, -1, -1, 0, 0})
		}
		v := tensors.New([]float32{float32(r), float32(-r)}, 2)
		check("Reduce sum", acc.Reduce(v, "sum").Float32s(), []float32{3, -3})
		check("Reduce mean", acc.Reduce(v, "mean").Float32s(), []float32{1, -1})
		check("Reduce max", acc.Reduce(v, "max").Float32s(), []float32{2, 0})
		check("Reduce min", acc.Reduce(v, "min").Float32s(), []float32{0, -2})
		s, e := acc.SplitBetweenProcesses(10)
		check("SplitBetweenProcesses", [2]int{s, e}, [][2]int{{0, 4}, {4, 7}, {7, 10}}[r])
		// MainProcessFirst: the main process's file exists before the others run fn.
		marker := filepath.Join(dir, "main-first")
		acc.MainProcessFirst(func() {
			if acc.IsMainProcess() {
				time.Sleep(100 * time.Millisecond)
				_ = os.WriteFile(marker, nil, 0o644)
			} else if _, err := os.Stat(marker); err != nil {
				panic(fmt.Sprintf("rank %d ran before the main process finished", r))
			}
		})
		acc.WaitForEveryone()
	})
}

// Prepare must give every process rank 0's initial parameters, whatever each
// process drew (the broadcast is skipped only when they already agree).
func TestPrepareGivesEveryProcessRankZerosParameters(t *testing.T) {
	launch(t, 2, func() {
		c := group()
		for _, seed := range []uint64{uint64(10 + c.Rank()), 10} { // differing, then identical
			acc := newWithComm(withCfg(Config{}), c)
			tensors.ManualSeed(seed)
			var m nn.Module = nn.NewLinear(3, 2)
			acc.Prepare(&m)
			all, err := c.AllGatherBytes(float64Bytes(toF64(m.Parameters()[0].Float32s())))
			must(err, "exchange parameters")
			if string(all[0]) != string(all[1]) {
				panic(fmt.Sprintf("seed %d: ranks hold different parameters after Prepare", seed))
			}
		}
	})
}
