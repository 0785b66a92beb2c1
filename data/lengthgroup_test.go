package data

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestGroupByLengthMatchesTransformers feeds transformers' torch.randperm to the grouping and
// compares with get_length_grouped_indices (testdata/make_length_grouped.py).
func TestGroupByLengthMatchesTransformers(t *testing.T) {
	b, err := os.ReadFile("testdata/length_grouped.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Lengths       []int `json:"lengths"`
			BatchSize     int   `json:"batch_size"`
			MegaBatchMult int   `json:"mega_batch_mult"`
			Perm          []int `json:"perm"`
			Order         []int `json:"order"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) < 5 {
		t.Fatalf("%d cases in the fixture", len(fx.Cases))
	}
	for _, c := range fx.Cases {
		t.Run(fmt.Sprintf("n%d_bs%d_mult%d", len(c.Lengths), c.BatchSize, c.MegaBatchMult), func(t *testing.T) {
			mult := c.MegaBatchMult
			if mult == 0 {
				mult = max(min(len(c.Lengths)/(c.BatchSize*4), 50), 1)
			}
			got := groupByLength(slices.Clone(c.Perm), c.Lengths, mult*c.BatchSize)
			if !reflect.DeepEqual(got, c.Order) {
				t.Errorf("order\n got %v\nwant %v", got, c.Order)
			}
		})
	}
}

func TestLengthGroupedSamplerIsASeededPermutationWithTheLongestFirst(t *testing.T) {
	lengths := make([]int, 101)
	for i := range lengths {
		lengths[i] = (i * 37) % 53
	}
	s := &LengthGroupedSampler{Lengths: lengths, BatchSize: 4, Seed: 5}
	e0, again, e1 := s.Order(0), s.Order(0), s.Order(1)
	if !reflect.DeepEqual(e0, again) {
		t.Error("the same epoch and seed gave two orders")
	}
	if reflect.DeepEqual(e0, e1) {
		t.Error("epoch 1 repeated epoch 0's order")
	}
	sorted := slices.Clone(e0)
	sort.Ints(sorted)
	for i, v := range sorted {
		if v != i {
			t.Fatalf("the order is not a permutation of 0..100: %v", e0)
		}
	}
	if lengths[e0[0]] != slices.Max(lengths) {
		t.Errorf("first sample has length %d, the longest is %d", lengths[e0[0]], slices.Max(lengths))
	}
	if got := len(s.Batches(0)); got != 26 || s.Len() != 26 {
		t.Errorf("%d batches (Len %d), want 26", got, s.Len())
	}
	s.DropLast = true
	if got := s.Batches(0); len(got) != 25 || s.Len() != 25 {
		t.Errorf("with DropLast %d batches (Len %d), want 25", len(got), s.Len())
	}
}

// Grouping by length pads less: over an epoch of tokenRows, the padded widths of grouped batches
// add up to fewer tokens than shuffled ones.
func TestLoaderGroupByLengthPadsLessThanShuffling(t *testing.T) {
	padded := func(group bool) int {
		l := NewLoader(tokenRows{400}, LoaderConfig{BatchSize: 8, Shuffle: true, Seed: 3, GroupByLength: group})
		if _, ok := l.Sampler().(*LengthGroupedSampler); ok != group {
			t.Fatalf("GroupByLength %v gave the sampler %T", group, l.Sampler())
		}
		_, widths := namedEpoch(t, l)
		total := 0
		for _, w := range widths {
			total += 8 * w
		}
		return total
	}
	grouped, shuffled := padded(true), padded(false)
	if grouped >= shuffled {
		t.Errorf("grouped batches hold %d tokens with padding, shuffled ones %d", grouped, shuffled)
	}
}

func TestGroupByLengthNeedsSampleLengths(t *testing.T) {
	msg := fmt.Sprint(catchPanic(func() { NewLoader(rangeDataset(4), LoaderConfig{GroupByLength: true}) }))
	if !strings.Contains(msg, "SampleLengths") {
		t.Errorf("panic %q", msg)
	}
}
