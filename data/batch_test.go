package data

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// tokenRows is a dataset of named batches: sample i has i%4+1 tokens, all equal to i, padded
// with -1 to the batch's longest, and the label i*10.
type tokenRows struct{ n int }

func (d tokenRows) Len() int { return d.n }
func (d tokenRows) Get(i int) (x, y *tensors.Tensor) {
	panic("tokenRows: the Loader must collate named batches with GetNamedBatch")
}
func (d tokenRows) SampleLengths() []int {
	out := make([]int, d.n)
	for i := range out {
		out[i] = i%4 + 1
	}
	return out
}
func (d tokenRows) GetNamedBatch(indices []int) *Batch {
	width := 0
	for _, i := range indices {
		width = max(width, i%4+1)
	}
	var ids, mask, labels []int64
	for _, i := range indices {
		for k := range width {
			if k < i%4+1 {
				ids, mask = append(ids, int64(i)), append(mask, 1)
			} else {
				ids, mask = append(ids, -1), append(mask, 0)
			}
		}
		labels = append(labels, int64(i*10))
	}
	b := len(indices)
	return NewBatch().Set("input_ids", tensors.FromInt64(ids, b, width)).
		Set("attention_mask", tensors.FromInt64(mask, b, width)).Set("labels", tensors.FromInt64(labels, b))
}

func TestBatchKeepsNamesInOrderAndReplacesInPlace(t *testing.T) {
	b := NewBatch().Set("a", tensors.FromInt64([]int64{1, 2}, 2)).Set("b", tensors.New([]float32{3, 4}, 2))
	b.Set("a", tensors.FromInt64([]int64{5, 6, 7}, 3))
	if got := b.Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Names() = %v", got)
	}
	if got := b.Get("a").Int64s(); !reflect.DeepEqual(got, []int64{5, 6, 7}) || b.Len() != 3 {
		t.Errorf("a = %v, Len %d after replacing", got, b.Len())
	}
	if b.Get("missing") != nil {
		t.Error("Get of a missing name is not nil")
	}
	doubled := b.Apply(func(name string, x *tensors.Tensor) *tensors.Tensor { return x.Add(x) })
	if got := doubled.Get("b").Float32s(); !reflect.DeepEqual(got, []float32{6, 8}) || b.Get("b").Float32s()[0] != 3 {
		t.Errorf("Apply gave %v and changed the original to %v", got, b.Get("b").Float32s())
	}
	if s := b.String(); !strings.Contains(s, "a [3] int64") || !strings.Contains(s, "b [2] float32") {
		t.Errorf("String() = %s", s)
	}
}

// namedEpoch returns the labels and padded widths of one pass, checking that Batch gives the
// first tensor and the labels of Named.
func namedEpoch(t *testing.T, l *Loader) (labels [][]int64, widths []int) {
	t.Helper()
	for l.Next() {
		b := l.Named()
		x, y := l.Batch()
		if x != b.Get("input_ids") || y != b.Get("labels") {
			t.Fatalf("Batch() is not (input_ids, labels) of Named() %v", b)
		}
		labels = append(labels, y.Int64s())
		widths = append(widths, x.Size(1))
	}
	return labels, widths
}

func TestLoaderCollatesNamedBatchesWithAndWithoutPrefetch(t *testing.T) {
	var runs [][]int64
	for _, prefetch := range []int{NoPrefetch, 0, 3} {
		l := NewLoader(tokenRows{10}, LoaderConfig{BatchSize: 4, Shuffle: true, Seed: 9, Prefetch: prefetch})
		var epochs []int64
		for range 2 {
			got, widths := namedEpoch(t, l)
			if len(got) != 3 || len(got[2]) != 2 {
				t.Fatalf("prefetch %d: batches %v", prefetch, got)
			}
			for k, w := range widths {
				if w > 4 {
					t.Errorf("batch %d padded to %d", k, w)
				}
			}
			epochs = append(epochs, flatten(got)...)
		}
		runs = append(runs, epochs)
	}
	if !reflect.DeepEqual(runs[0], runs[1]) || !reflect.DeepEqual(runs[0], runs[2]) {
		t.Errorf("prefetching changed the batches: %v", runs)
	}
}

func TestNamedBatchTransformRunsOnNamedBatchesOnly(t *testing.T) {
	l := NewLoader(tokenRows{4}, LoaderConfig{BatchSize: 2, Prefetch: NoPrefetch})
	l.SetBatchTransform(func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
		panic("the (x, y) transform ran on a named batch")
	})
	l.SetNamedBatchTransform(func(b *Batch) *Batch {
		return b.Apply(func(name string, x *tensors.Tensor) *tensors.Tensor {
			if name == "labels" {
				return x.Add(x)
			}
			return x
		})
	})
	got, _ := namedEpoch(t, l)
	if want := [][]int64{{0, 20}, {40, 60}}; !reflect.DeepEqual(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

func TestNamedPanicsForAnXYDataset(t *testing.T) {
	l := NewLoader(rangeDataset(4), LoaderConfig{BatchSize: 2})
	l.Next()
	msg := fmt.Sprint(catchPanic(func() { l.Named() }))
	if !strings.Contains(msg, "use Batch") {
		t.Errorf("Named on an (x, y) dataset: %q", msg)
	}
}

func catchPanic(fn func()) (r any) {
	defer func() { r = recover() }()
	fn()
	return nil
}
