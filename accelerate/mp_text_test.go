package accelerate

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/datasets"
	"github.com/goaccel/goaccel/tensors"
)

// textRows is a tokenized text dataset behind a padding collator: row i has i%13+2 tokens
// (i+1000 each) and the label i, so a gathered label names its row and the attention mask its
// length.
func textRows(n int) *datasets.Collated {
	ids := make([][]int64, n)
	labels := make([]int, n)
	for i := range n {
		row := make([]int64, i%13+2)
		for k := range row {
			row[k] = int64(i + 1000)
		}
		ids[i], labels[i] = row, i
	}
	ds, err := datasets.FromColumns(map[string]any{"input_ids": ids, "label": labels})
	if err != nil {
		panic(err)
	}
	c, err := datasets.WithCollator(ds, datasets.DataCollatorWithPadding{PadTokenID: 0, PadToMultipleOf: 8})
	if err != nil {
		panic(err)
	}
	return c
}

type textCase struct {
	N       int
	Group   bool // LoaderConfig.GroupByLength
	Skip    int  // SkipFirstBatches
	NoEven  bool // EvenBatches off
	Epochs  int
	Batches [][][]int // filled by the workers: each rank's batches (their labels), rank 0's first
	Labels  [][]int   // filled by the workers: per epoch, the labels GatherForMetrics gave
}

// textEpochs runs gc on a prepared loader of textRows: each batch is checked (the mask covers
// each row's tokens, the padding is 0, the width a multiple of 8), its labels and lengths are
// gathered for metrics, and rank 0's gathered labels and every rank's batches are returned.
func textEpochs(c comm, tc textCase) textCase {
	cfg := Config{}
	if tc.NoEven {
		cfg.EvenBatches = Off
	}
	acc := newWithComm(withCfg(cfg), c)
	loader := data.NewLoader(textRows(tc.N), data.LoaderConfig{BatchSize: 4, Shuffle: true, GroupByLength: tc.Group, Seed: uint64(50 + c.Rank())})
	acc.Prepare(&loader)
	var mine [][]int
	for e := 0; e < tc.Epochs; e++ {
		if tc.Skip > 0 {
			acc.SkipFirstBatches(loader, tc.Skip)
		}
		var seen []int
		for loader.Next() {
			b := loader.Named()
			ids, mask, labels := b.Get("input_ids"), b.Get("attention_mask"), b.Get("labels")
			width := ids.Size(1)
			if width%8 != 0 {
				panic(fmt.Sprintf("width %d is not a multiple of 8", width))
			}
			lengths := make([]int64, labels.Size(0))
			iv, mv := ids.Int64s(), mask.Int64s()
			for r, l := range labels.Int64s() {
				for k := range width {
					lengths[r] += mv[r*width+k]
					if real := k < int(l)%13+2; real != (mv[r*width+k] == 1) || (real && iv[r*width+k] != l+1000) || (!real && iv[r*width+k] != 0) {
						panic(fmt.Sprintf("row of label %d badly padded at %d", l, k))
					}
				}
			}
			var batch []int
			for _, l := range labels.Int64s() {
				batch = append(batch, int(l))
			}
			mine = append(mine, batch)
			g := acc.GatherForMetricsAll(labels, tensors.FromInt64(lengths, len(lengths)))
			for r, l := range g[0].Int64s() {
				if g[1].Int64s()[r] != l%13+2 {
					panic(fmt.Sprintf("gathered label %d with length %d", l, g[1].Int64s()[r]))
				}
				seen = append(seen, int(l))
			}
		}
		tc.Labels = append(tc.Labels, seen)
	}
	enc, err := json.Marshal(mine)
	must(err, "encode batches")
	all, err := c.AllGatherBytes(enc)
	must(err, "exchange batches")
	for _, b := range all {
		var rank [][]int
		must(json.Unmarshal(b, &rank), "decode batches")
		tc.Batches = append(tc.Batches, rank)
	}
	return tc
}

func TestTextBatchesShardGatherAndResumeOnTwoProcesses(t *testing.T) {
	dir := sharedDir(t)
	cases := []textCase{
		{N: 45, Epochs: 2},              // 45 = 5 rounds of 2×4 and 5 left: the last round is padded
		{N: 45, Group: true, Epochs: 2}, // batches grouped by length, drawn with rank 0's seed
		{N: 64, Skip: 2, Epochs: 1},     // resume after two batches of each rank
		{N: 45, Skip: 1, Group: true, Epochs: 1},
		{N: 45, NoEven: true, Epochs: 1},
	}
	launch(t, 2, func() {
		c := group()
		var out []textCase
		for _, tc := range cases {
			out = append(out, textEpochs(c, tc))
		}
		if c.Rank() == 0 {
			writeJSON(resultPath(dir, "text"), out)
		}
	})
	var got []textCase
	readJSON(t, resultPath(dir, "text"), &got)
	for _, tc := range got {
		name := fmt.Sprintf("n%d_group%t_skip%d_noeven%t", tc.N, tc.Group, tc.Skip, tc.NoEven)
		want := tc.N - tc.Skip*2*4
		for e, seen := range tc.Labels {
			s := slices.Clone(seen)
			slices.Sort(s)
			if len(s) != want || len(slices.Compact(s)) != want {
				t.Errorf("%s epoch %d: GatherForMetrics gave %d labels (%d distinct), want each of %d once", name, e, len(seen), len(slices.Compact(s)), want)
			}
		}
		if tc.Group && tc.Skip == 0 {
			// Rank r's k-th batch of an epoch is global batch 2k+r of rank 0's length-grouped
			// order (then the padding of the last round).
			sampler := data.LengthGroupedSampler{Lengths: textRows(tc.N).SampleLengths(), BatchSize: 4, Seed: 50}
			r0, r1 := tc.Batches[0], tc.Batches[1]
			per := len(r0) / tc.Epochs
			for e := range tc.Epochs {
				var global []int
				for k := e * per; k < (e+1)*per; k++ {
					global = append(append(global, r0[k]...), r1[k]...)
				}
				if want := sampler.Order(e); len(global) < tc.N || !slices.Equal(global[:tc.N], want) {
					t.Errorf("%s epoch %d: the ranks' batches are not rank 0's length-grouped order:\n got %v\nwant %v", name, e, global, want)
				}
			}
		}
	}
}

// A prepared loader on a device moves every tensor of a named batch there, after the loader's own
// named transform, and Batch returns the moved input_ids and labels.
func TestPreparedLoaderMovesNamedBatchesToTheDevice(t *testing.T) {
	t.Setenv(EnvDevice, "sim")
	acc := newWithComm(withCfg(Config{}), solo{})
	loader := data.NewLoader(textRows(10), data.LoaderConfig{BatchSize: 4})
	loader.SetNamedBatchTransform(func(b *data.Batch) *data.Batch {
		if b.Get("input_ids").Device() != tensors.CPU {
			panic("the loader's own transform ran after the move to the device")
		}
		return b.Set("lengths", b.Get("attention_mask").SumDims(false, 1))
	})
	acc.Prepare(&loader)
	batches := 0
	for loader.Next() {
		b := loader.Named()
		for _, name := range b.Names() {
			if d := b.Get(name).Device(); d != acc.Device() {
				t.Errorf("%s is on %s, want %s", name, d, acc.Device())
			}
		}
		if x, y := loader.Batch(); x != b.Get("input_ids") || y != b.Get("labels") {
			t.Error("Batch() does not return the moved input_ids and labels")
		}
		batches++
	}
	if batches != 3 || acc.Device() == tensors.CPU {
		t.Errorf("%d batches on %s", batches, acc.Device())
	}
}
