package backend_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TestDropoutUniformIsUniform: the counter-based draws behind attention dropout are uniform
// and differ between seeds.
func TestDropoutUniformIsUniform(t *testing.T) {
	const n = 200000
	var hist [10]int
	same := 0
	for i := range uint64(n) {
		u := backend.DropoutUniform(7, i)
		if u < 0 || u >= 1 {
			t.Fatalf("draw %d = %v outside [0, 1)", i, u)
		}
		hist[int(u*10)]++
		if backend.DropoutUniform(8, i) == u {
			same++
		}
	}
	for i, c := range hist {
		if math.Abs(float64(c)-n/10) > 5*math.Sqrt(n/10) {
			t.Fatalf("decile %d has %d draws of %d", i, c, n)
		}
	}
	if same > n/1000 {
		t.Fatalf("seeds 7 and 8 agree on %d of %d draws", same, n)
	}
}

func TestTopKRowOrdersAndBreaksTies(t *testing.T) {
	row := []float64{3, 1, 3, math.NaN(), -2, 5}
	for _, c := range []struct {
		k       int
		largest bool
		want    []int64
	}{
		{3, true, []int64{3, 5, 0}},
		{4, true, []int64{3, 5, 0, 2}},
		{2, false, []int64{4, 1}},
		{6, false, []int64{4, 1, 0, 2, 5, 3}},
	} {
		got := make([]int64, c.k)
		backend.TopKRow(got, row, c.largest)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("k=%d largest=%v: %v, want %v", c.k, c.largest, got, c.want)
		}
	}
}

func TestMultinomialRowFollowsWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	w := []float64{1, 0, 3, 6}
	counts := make([]int, 4)
	const n = 100000
	dst, u := make([]int64, 1), make([]float64, 1)
	for range n {
		u[0] = r.Float64()
		backend.MultinomialRow(dst, append([]float64(nil), w...), u, true)
		counts[dst[0]]++
	}
	for j, c := range counts {
		want := w[j] / 10 * n
		if math.Abs(float64(c)-want) > 5*math.Sqrt(want+1) {
			t.Fatalf("index %d drawn %d times, want about %.0f", j, c, want)
		}
	}
	all := make([]int64, 3)
	backend.MultinomialRow(all, []float64{1, 0, 3, 6}, []float64{0.99, 0.99, 0.99}, false)
	seen := map[int64]bool{}
	for _, j := range all {
		if j == 1 || seen[j] {
			t.Fatalf("draws without replacement %v repeat an index or pick a zero weight", all)
		}
		seen[j] = true
	}
}
