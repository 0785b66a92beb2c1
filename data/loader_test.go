package data

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// seqDataset implements only Dataset (no BatchGetter): sample i is ([i, 10i], i).
type seqDataset struct{ n int }

func (d seqDataset) Len() int { return d.n }
func (d seqDataset) Get(i int) (x, y *tensors.Tensor) {
	return tensors.New([]float32{float32(i), float32(10 * i)}, 2), tensors.FromInt64([]int64{int64(i)})
}

func rangeDataset(n int) *TensorDataset {
	x := make([]float32, 2*n)
	y := make([]int64, n)
	for i := 0; i < n; i++ {
		x[2*i], x[2*i+1] = float32(i), float32(10*i)
		y[i] = int64(i)
	}
	return NewTensorDataset(tensors.New(x, n, 2), tensors.FromInt64(y, n))
}

// epochLabels runs one pass and returns the label lists of its batches.
func epochLabels(t *testing.T, l *Loader) [][]int64 {
	t.Helper()
	var out [][]int64
	for l.Next() {
		x, y := l.Batch()
		ys := y.Int64s()
		xs := x.Float32s()
		if x.Size(0) != len(ys) || x.Size(1) != 2 {
			t.Fatalf("batch x shape %v for %d labels", x.Shape(), len(ys))
		}
		for k, v := range ys {
			if xs[2*k] != float32(v) || xs[2*k+1] != float32(10*v) {
				t.Fatalf("sample %d: x = %v, %v does not belong to label %d", k, xs[2*k], xs[2*k+1], v)
			}
		}
		out = append(out, ys)
	}
	return out
}

func TestLoaderBatchesInOrder(t *testing.T) {
	cases := []struct {
		n, bs    int
		dropLast bool
		sizes    []int
	}{
		{10, 4, false, []int{4, 4, 2}},
		{10, 4, true, []int{4, 4}},
		{8, 4, true, []int{4, 4}},
		{3, 5, false, []int{3}},
		{3, 5, true, nil},
	}
	for _, c := range cases {
		for _, ds := range []Dataset{rangeDataset(c.n), seqDataset{c.n}} {
			t.Run(fmt.Sprintf("%T/n%d/bs%d/drop%v", ds, c.n, c.bs, c.dropLast), func(t *testing.T) {
				l := NewLoader(ds, LoaderConfig{BatchSize: c.bs, DropLast: c.dropLast})
				if l.Len() != len(c.sizes) {
					t.Errorf("Len() = %d, want %d", l.Len(), len(c.sizes))
				}
				got := epochLabels(t, l)
				next := int64(0)
				if len(got) != len(c.sizes) {
					t.Fatalf("%d batches, want %d", len(got), len(c.sizes))
				}
				for b, ys := range got {
					if len(ys) != c.sizes[b] {
						t.Errorf("batch %d has %d samples, want %d", b, len(ys), c.sizes[b])
					}
					for _, v := range ys {
						if v != next {
							t.Fatalf("batch %d: label %d, want %d", b, v, next)
						}
						next++
					}
				}
			})
		}
	}
}

func flatten(bs [][]int64) []int64 {
	var out []int64
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}

func TestShuffleIsAPermutationReproducibleAndNewEachEpoch(t *testing.T) {
	cfg := LoaderConfig{BatchSize: 7, Shuffle: true, Seed: 42}
	a := NewLoader(rangeDataset(50), cfg)
	b := NewLoader(seqDataset{50}, cfg)
	e0, e1 := flatten(epochLabels(t, a)), flatten(epochLabels(t, a))
	if !reflect.DeepEqual(e0, flatten(epochLabels(t, b))) {
		t.Error("two loaders with the same seed give different orders")
	}
	if reflect.DeepEqual(e0, e1) {
		t.Error("epoch 1 repeats epoch 0's order")
	}
	sorted := append([]int64(nil), e0...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for i, v := range sorted {
		if v != int64(i) {
			t.Fatalf("epoch 0 is not a permutation of 0..49: %v", e0)
		}
	}
	c := NewLoader(rangeDataset(50), cfg)
	c.SetEpoch(1)
	if got := flatten(epochLabels(t, c)); !reflect.DeepEqual(got, e1) {
		t.Error("SetEpoch(1) does not reproduce epoch 1's order")
	}
	if c.Epoch() != 2 {
		t.Errorf("Epoch() after the epoch-1 pass = %d, want 2", c.Epoch())
	}
	d := NewLoader(rangeDataset(50), LoaderConfig{BatchSize: 7, Shuffle: true, Seed: 43})
	if reflect.DeepEqual(flatten(epochLabels(t, d)), e0) {
		t.Error("seeds 42 and 43 give the same order")
	}
}

func TestZeroSeedFollowsManualSeed(t *testing.T) {
	order := func() []int64 {
		tensors.ManualSeed(7)
		return flatten(epochLabels(t, NewLoader(rangeDataset(30), LoaderConfig{BatchSize: 8, Shuffle: true})))
	}
	if a, b := order(), order(); !reflect.DeepEqual(a, b) {
		t.Errorf("same ManualSeed, different orders: %v vs %v", a, b)
	}
}

func TestSkipBatchesResumesMidEpochOnce(t *testing.T) {
	cfg := LoaderConfig{BatchSize: 4, Shuffle: true, Seed: 9}
	full := epochLabels(t, NewLoader(rangeDataset(22), cfg))
	l := NewLoader(rangeDataset(22), cfg)
	l.SkipBatches(2)
	got := epochLabels(t, l)
	if !reflect.DeepEqual(got, full[2:]) {
		t.Errorf("after SkipBatches(2): %v, want %v", got, full[2:])
	}
	if next := epochLabels(t, l); len(next) != len(full) {
		t.Errorf("the skip applied to the following epoch too: %d batches, want %d", len(next), len(full))
	}
}

func TestResetAbandonsPass(t *testing.T) {
	l := NewLoader(rangeDataset(10), LoaderConfig{BatchSize: 3})
	l.Next()
	l.Next()
	if l.Position() != 2 {
		t.Errorf("Position() = %d, want 2", l.Position())
	}
	l.Reset()
	if got := epochLabels(t, l); len(got) != 4 || got[0][0] != 0 {
		t.Errorf("after Reset: %v, want a full pass from sample 0", got)
	}
	if l.Epoch() != 2 {
		t.Errorf("Epoch() = %d, want 2 (two passes started)", l.Epoch())
	}
}

// evenSampler takes every second batch of an inner sampler, as a sharded sampler for rank 0 of 2.
type evenSampler struct{ inner BatchSampler }

func (s evenSampler) Len() int { return (s.inner.Len() + 1) / 2 }
func (s evenSampler) Batches(epoch int) [][]int {
	var out [][]int
	for i, b := range s.inner.Batches(epoch) {
		if i%2 == 0 {
			out = append(out, b)
		}
	}
	return out
}

func TestReplacedSamplerDrivesBatches(t *testing.T) {
	l := NewLoader(rangeDataset(20), LoaderConfig{BatchSize: 4})
	l.SetSampler(evenSampler{l.Sampler()})
	got := epochLabels(t, l)
	want := [][]int64{{0, 1, 2, 3}, {8, 9, 10, 11}, {16, 17, 18, 19}}
	if !reflect.DeepEqual(got, want) || l.Len() != 3 {
		t.Errorf("batches %v (Len %d), want %v (Len 3)", got, l.Len(), want)
	}
}

func TestBatchTransformRunsOnEveryBatch(t *testing.T) {
	l := NewLoader(rangeDataset(6), LoaderConfig{BatchSize: 4})
	l.SetBatchTransform(func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
		return x.MulScalar(2), y
	})
	var firsts []float32
	for l.Next() {
		x, _ := l.Batch()
		firsts = append(firsts, x.Float32s()[0])
	}
	if !reflect.DeepEqual(firsts, []float32{0, 8}) {
		t.Errorf("first inputs %v, want [0 8] (doubled)", firsts)
	}
}

func TestBatchWithoutTargets(t *testing.T) {
	l := NewLoader(NewTensorDataset(tensors.Ones(5, 3), nil), LoaderConfig{BatchSize: 2})
	l.Next()
	x, y := l.Batch()
	if y != nil || !reflect.DeepEqual(x.Shape(), []int{2, 3}) {
		t.Errorf("x %v, y %v; want x [2 3] and nil y", x.Shape(), y)
	}
	if idx := l.Indices(); !reflect.DeepEqual(idx, []int{0, 1}) {
		t.Errorf("Indices() = %v", idx)
	}
}

func TestNewTensorDatasetRejectsMismatchedRows(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic for 3 inputs and 4 targets")
		}
	}()
	NewTensorDataset(tensors.Zeros(3, 2), tensors.Zeros(4))
}

func BenchmarkLoaderMNISTShapedBatch(b *testing.B) {
	ds := NewTensorDataset(tensors.Zeros(10000, 1, 28, 28), tensors.FromInt64(make([]int64, 10000), 10000))
	l := NewLoader(ds, LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !l.Next() {
			l.Next()
		}
	}
}

// BenchmarkCopyBaseline copies the same bytes as one MNIST-shaped batch with plain Go, as the
// baseline for BenchmarkLoaderMNISTShapedBatch in the same run.
func BenchmarkCopyBaseline(b *testing.B) {
	src := make([]float32, 10000*784)
	perm := tensors.NewGenerator(1).Perm(10000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst := make([]float32, 128*784)
		for k := 0; k < 128; k++ {
			r := perm[(i*128+k)%10000]
			copy(dst[k*784:(k+1)*784], src[r*784:(r+1)*784])
		}
		_ = dst
	}
}
