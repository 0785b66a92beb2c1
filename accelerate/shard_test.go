package accelerate

import (
	"reflect"
	"testing"
)

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func shardAll(s shardSpec, n int) [][][]int {
	var out [][][]int
	for r := 0; r < s.numProcs; r++ {
		s.rank = r
		out = append(out, s.shard(batchesOf(seq(n), s.batchSize, s.dropLast)))
	}
	return out
}

// Expected values are those of Accelerate's tests/test_data_loader.py (BatchSamplerShard).
func TestShardMatchesAcceleratesBatchSamplerShard(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec shardSpec
		n    int
		want [][][]int
	}{
		{"round multiple", shardSpec{numProcs: 2, batchSize: 3, even: true}, 24, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 20}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}, {21, 22, 23}}}},
		{"one batch short, filled from the start", shardSpec{numProcs: 2, batchSize: 3, even: true}, 21, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 20}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}, {0, 1, 2}}}},
		{"last batch partial", shardSpec{numProcs: 2, batchSize: 3, even: true}, 22, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 20}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}, {21, 0, 1}}}},
		{"partial with a missing batch", shardSpec{numProcs: 2, batchSize: 3, even: true}, 20, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 0}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}, {1, 2, 3}}}},
		{"tiny dataset", shardSpec{numProcs: 2, batchSize: 3, even: true}, 2, [][][]int{
			{{0, 1, 0}}, {{1, 0, 1}}}},
		{"drop last", shardSpec{numProcs: 2, batchSize: 3, dropLast: true, even: true}, 21, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}}}},
		{"uneven", shardSpec{numProcs: 2, batchSize: 3}, 22, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 20}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}, {21}}}},
		{"uneven, missing batch", shardSpec{numProcs: 2, batchSize: 3}, 21, [][][]int{
			{{0, 1, 2}, {6, 7, 8}, {12, 13, 14}, {18, 19, 20}},
			{{3, 4, 5}, {9, 10, 11}, {15, 16, 17}}}},
		{"split", shardSpec{numProcs: 2, batchSize: 4, split: true, even: true}, 22, [][][]int{
			{{0, 1}, {4, 5}, {8, 9}, {12, 13}, {16, 17}, {20, 21}},
			{{2, 3}, {6, 7}, {10, 11}, {14, 15}, {18, 19}, {0, 1}}}},
		{"split, short last", shardSpec{numProcs: 2, batchSize: 4, split: true, even: true}, 21, [][][]int{
			{{0, 1}, {4, 5}, {8, 9}, {12, 13}, {16, 17}, {20, 0}},
			{{2, 3}, {6, 7}, {10, 11}, {14, 15}, {18, 19}, {1, 2}}}},
		{"split, uneven", shardSpec{numProcs: 2, batchSize: 4, split: true}, 21, [][][]int{
			{{0, 1}, {4, 5}, {8, 9}, {12, 13}, {16, 17}, {20}},
			{{2, 3}, {6, 7}, {10, 11}, {14, 15}, {18, 19}}}},
		{"one process keeps the short last batch", shardSpec{numProcs: 1, batchSize: 4, even: true}, 10, [][][]int{
			{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := shardAll(tc.spec, tc.n); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("shards of %d samples = %v; want %v", tc.n, got, tc.want)
			}
		})
	}
}

func TestRemainderCountsRealSamplesOfLastRound(t *testing.T) {
	for _, tc := range []struct {
		spec shardSpec
		n    int
		want int
	}{
		{shardSpec{numProcs: 2, batchSize: 8}, 82, 2},
		{shardSpec{numProcs: 3, batchSize: 8}, 99, 3},
		{shardSpec{numProcs: 2, batchSize: 8}, 512, 0},
		{shardSpec{numProcs: 2, batchSize: 8, dropLast: true}, 82, -1},
		{shardSpec{numProcs: 2, batchSize: 8, split: true}, 82, 2},
	} {
		if got := tc.spec.remainder(tc.n); got != tc.want {
			t.Errorf("%+v.remainder(%d) = %d; want %d", tc.spec, tc.n, got, tc.want)
		}
	}
}
