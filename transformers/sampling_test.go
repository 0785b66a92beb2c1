package transformers

import (
	"math"
	"slices"
	"testing"
)

// TestWarpFiltersAsTransformers: temperature divides, top-k keeps the k largest (ties with the
// k-th included), top-p keeps the smallest set of likeliest tokens whose probability reaches p
// (TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper), in that order.
func TestWarpFiltersAsTransformers(t *testing.T) {
	inf := float32(math.Inf(-1))
	logs := func(p ...float64) []float32 {
		out := make([]float32, len(p))
		for i, x := range p {
			out[i] = float32(math.Log(x))
		}
		return out
	}
	for _, c := range []struct {
		name string
		s    sampler
		in   []float32
		keep []bool
	}{
		{"top-k with a tie at the k-th", sampler{temperature: 1, topK: 2}, []float32{1, 3, 3, 2}, []bool{false, true, true, false}},
		{"top-k above the vocabulary", sampler{temperature: 1, topK: 9}, []float32{1, 3, 3, 2}, []bool{true, true, true, true}},
		{"top-p 0.5", sampler{temperature: 1, topP: 0.5}, logs(0.1, 0.2, 0.3, 0.4), []bool{false, false, true, true}},
		{"top-p 0.75", sampler{temperature: 1, topP: 0.75}, logs(0.2, 0.1, 0.3, 0.4), []bool{true, false, true, true}},
		{"top-p keeps the likeliest", sampler{temperature: 1, topP: 0.01}, logs(0.1, 0.2, 0.3, 0.4), []bool{false, false, false, true}},
		{"top-k then top-p, renormalised", sampler{temperature: 1, topK: 3, topP: 0.5}, logs(0.1, 0.2, 0.3, 0.4), []bool{false, false, true, true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			row := slices.Clone(c.in)
			c.s.warp(row)
			for i, x := range row {
				if kept := x != inf; kept != c.keep[i] || (kept && x != c.in[i]) {
					t.Fatalf("warped %v into %v, want kept %v", c.in, row, c.keep)
				}
			}
		})
	}
	row := []float32{1, -3}
	sampler{temperature: 2}.warp(row)
	if !slices.Equal(row, []float32{0.5, -1.5}) {
		t.Fatalf("temperature 2: %v", row)
	}
}
