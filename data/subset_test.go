package data

import (
	"reflect"
	"sort"
	"testing"
)

func TestRandomSplitPartitionsTheDataset(t *testing.T) {
	ds := rangeDataset(20)
	parts := RandomSplit(ds, []int{15, 5}, 42)
	if parts[0].Len() != 15 || parts[1].Len() != 5 {
		t.Fatalf("lengths %d, %d", parts[0].Len(), parts[1].Len())
	}
	var all []int
	for _, p := range parts {
		all = append(all, p.Indices...)
	}
	sort.Ints(all)
	for i, v := range all {
		if v != i {
			t.Fatalf("the parts do not partition 0..19: %v", all)
		}
	}
	if again := RandomSplit(ds, []int{15, 5}, 42); !reflect.DeepEqual(again[1].Indices, parts[1].Indices) {
		t.Error("the same seed gave a different split")
	}
	// Batches of a subset hold the mapped samples, by GetBatch and by Get alike.
	for _, sub := range []Dataset{parts[1], &Subset{Dataset: seqDataset{20}, Indices: parts[1].Indices}} {
		got := flatten(epochLabels(t, NewLoader(sub, LoaderConfig{BatchSize: 2})))
		for k, v := range got {
			if int(v) != parts[1].Indices[k] {
				t.Fatalf("%T: sample %d has label %d, want %d", sub, k, v, parts[1].Indices[k])
			}
		}
	}
}

func TestRandomSplitRejectsWrongLengths(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic for lengths that do not add up")
		}
	}()
	RandomSplit(rangeDataset(10), []int{5, 4}, 1)
}
