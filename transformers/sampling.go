package transformers

import (
	"fmt"
	"math"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// sampler picks each step's tokens from the last position's logits, as transformers' logits
// warpers and token selection do: argmax for greedy decoding; temperature, top-k and top-p
// (in that order) and a draw from the softmax when sampling.
type sampler struct {
	sample      bool
	temperature float32
	topK        int
	topP        float64
	gen         *tensors.Generator
}

func newSampler(o GenerateOptions) (sampler, error) {
	switch {
	case !(o.Temperature >= 0) || math.IsInf(o.Temperature, 0):
		return sampler{}, fmt.Errorf("GenerateOptions.Temperature must be positive (0 means 1), have %v", o.Temperature)
	case o.TopK < 0:
		return sampler{}, fmt.Errorf("GenerateOptions.TopK must not be negative (0 keeps every token), have %d", o.TopK)
	case !(o.TopP >= 0 && o.TopP <= 1):
		return sampler{}, fmt.Errorf("GenerateOptions.TopP must be in [0, 1] (0 or 1 keep every token), have %v", o.TopP)
	case !o.DoSample && ((o.Temperature != 0 && o.Temperature != 1) || o.TopK > 0 || (o.TopP > 0 && o.TopP < 1)):
		return sampler{}, fmt.Errorf("GenerateOptions.Temperature, TopK and TopP shape sampling, and DoSample is false (greedy decoding would ignore them): set DoSample: true")
	}
	s := sampler{sample: o.DoSample, temperature: 1, topK: o.TopK, topP: o.TopP, gen: o.Generator}
	if o.Temperature != 0 {
		s.temperature = float32(o.Temperature)
	}
	if s.gen == nil {
		s.gen = tensors.DefaultGenerator()
	}
	return s, nil
}

// choose returns the step's scores (the logits, processed when sampling) and one token per row
// of logits [rows·vocab].
func (s sampler) choose(logits []float32, rows int) ([]float32, []int64, error) {
	v := len(logits) / rows
	for _, x := range logits {
		if math.IsNaN(float64(x)) {
			return nil, nil, fmt.Errorf("the model's logits hold NaN")
		}
	}
	tokens := make([]int64, rows)
	if !s.sample {
		for r := range rows {
			tokens[r] = int64(argmax(logits[r*v : (r+1)*v]))
		}
		return logits, tokens, nil
	}
	scores := slices.Clone(logits)
	probs := make([]float64, len(scores))
	for r := range rows {
		row := scores[r*v : (r+1)*v]
		s.warp(row)
		softmax64(row, probs[r*v:(r+1)*v])
	}
	drawn := tensors.Multinomial(tensors.NewFloat64(probs, rows, v), 1, true, s.gen).Int64s()
	copy(tokens, drawn)
	return scores, tokens, nil
}

// warp applies temperature, top-k and top-p to one row of scores in place (float32, as
// transformers' TemperatureLogitsWarper, TopKLogitsWarper and TopPLogitsWarper compute them).
func (s sampler) warp(row []float32) {
	if s.temperature != 1 {
		for i := range row {
			row[i] /= s.temperature
		}
	}
	inf := float32(math.Inf(-1))
	if s.topK > 0 && s.topK < len(row) {
		sorted := slices.Clone(row)
		slices.Sort(sorted)
		kth := sorted[len(sorted)-s.topK]
		for i, x := range row {
			if x < kth {
				row[i] = inf
			}
		}
	}
	if s.topP > 0 && s.topP < 1 {
		order := make([]int, len(row))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case row[a] < row[b]:
				return -1
			case row[a] > row[b]:
				return 1
			}
			return 0
		})
		sorted := make([]float32, len(row))
		for i, j := range order {
			sorted[i] = row[j]
		}
		p := softmax32(sorted)
		cum := float32(0)
		limit := float32(1 - s.topP)
		for i, j := range order {
			cum += p[i]
			if cum <= limit && i < len(order)-1 {
				row[j] = inf
			}
		}
	}
}

// argmax is the position of the first largest value.
func argmax(row []float32) int {
	best := 0
	for i, x := range row {
		if x > row[best] {
			best = i
		}
	}
	return best
}

// softmax32 is the softmax of row in float32.
func softmax32(row []float32) []float32 {
	m := float32(math.Inf(-1))
	for _, x := range row {
		m = max(m, x)
	}
	out := make([]float32, len(row))
	sum := float32(0)
	for i, x := range row {
		out[i] = float32(math.Exp(float64(x - m)))
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// softmax64 writes the softmax of row into dst in float64 (-Inf scores get probability 0).
func softmax64(row []float32, dst []float64) {
	m := math.Inf(-1)
	for _, x := range row {
		m = max(m, float64(x))
	}
	sum := 0.0
	for i, x := range row {
		dst[i] = math.Exp(float64(x) - m)
		sum += dst[i]
	}
	for i := range dst {
		dst[i] /= sum
	}
}
