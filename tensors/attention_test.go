package tensors

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

// allocated returns the bytes Go allocated while fn ran.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestAttentionMemoryIsLinearInSequenceLength runs causal attention over 4096 positions: the
// weights alone would be 64 MiB per head if they were stored; the fused kernel allocates the
// output, the log-sum-exp and a few blocks of scratch.
func TestAttentionMemoryIsLinearInSequenceLength(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	const n, d = 4096, 16
	g := NewGenerator(1)
	q, k, v := g.Randn(1, 1, n, d), g.Randn(1, 1, n, d), g.Randn(1, 1, n, d)
	for _, withGrad := range []bool{false, true} {
		if withGrad {
			q.SetRequiresGrad(true)
		}
		var out *Tensor
		bytes := allocated(func() { out = ScaledDotProductAttention(q, k, v, AttentionOptions{Causal: true}) })
		if bytes > 8<<20 {
			t.Fatalf("grad %v: attention over %d positions allocated %d bytes (the weights are %d)", withGrad, n, bytes, 4*n*n)
		}
		if withGrad {
			bytes = allocated(func() { out.Sum().Backward() })
			if bytes > 16<<20 {
				t.Fatalf("the backward pass allocated %d bytes", bytes)
			}
		}
	}
}

// TestMultiHeadAttentionCopiesNothing: the projection is read in place and the heads merge by a
// view, so the forward pass allocates the output and the log-sum-exp only.
func TestMultiHeadAttentionCopiesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	const b, n, c = 2, 256, 64
	qkv := Randn(b, n, 3*c).SetRequiresGrad(true)
	out := MultiHeadAttention(qkv, 4, AttentionOptions{Causal: true}) // warm the pools
	out.Sum().Backward()
	var y *Tensor
	// The least of three calls: a garbage collection between the warm-up and a call empties the
	// scratch pools (sync.Pool), and that call then allocates its scratch again.
	bytes := uint64(math.MaxUint64)
	for range 3 {
		bytes = min(bytes, allocated(func() { y = MultiHeadAttention(qkv, 4, AttentionOptions{Causal: true}) }))
	}
	if limit := uint64(4*b*n*c) + 64<<10; bytes > limit {
		t.Fatalf("forward allocated %d bytes; the output alone is %d", bytes, 4*b*n*c)
	}
	if y.node == nil || !y.IsContiguous() || !slices.Equal(y.shape, []int{b, n, c}) {
		t.Fatalf("result %v contiguous %v", y.shape, y.IsContiguous())
	}
}

func TestReshapeOfSplitHeadsIsAView(t *testing.T) {
	x := Randn(2, 5, 24)
	q := x.Slice(2, 8, 16).Reshape(2, 5, 2, 4)
	if q.st != x.st {
		t.Fatal("splitting a slice of the last dimension into heads copied")
	}
	if got, want := q.Float32s()[5], x.Float32s()[8+5]; got != want {
		t.Fatalf("element [0,0,1,1] = %v, want %v", got, want)
	}
	tr := x.Transpose(1, 2)
	if r := tr.Reshape(2, 120); r.st == x.st {
		t.Fatal("a reshape that mixes transposed dimensions must copy")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("View of a transposed tensor into a flat one did not panic")
			}
		}()
		tr.View(240)
	}()
}

// TestAttentionDropoutIsReproducibleAcrossDevices: the mask is a function of the generator's seed
// and the element's position, so every device draws the same one.
func TestAttentionDropoutIsReproducibleAcrossDevices(t *testing.T) {
	g := NewGenerator(2)
	q, k, v := g.Randn(2, 2, 9, 4), g.Randn(2, 2, 9, 4), g.Randn(2, 2, 9, 4)
	var want []float32
	for _, d := range testDevices {
		out := ScaledDotProductAttention(q.To(d), k.To(d), v.To(d), AttentionOptions{Causal: true, Dropout: 0.5, Gen: NewGenerator(11)}).Float32s()
		if want == nil {
			want = out
			continue
		}
		if i, ok := closeTo(out, toF64(want), 1e-5); !ok {
			t.Fatalf("%s: element %d = %v, cpu %v", d, i, out[i], want[i])
		}
	}
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// TestAttentionDropoutIsUnbiased: averaged over many masks, dropout's output is the output
// without it (kept weights are scaled by 1/(1−p)).
func TestAttentionDropoutIsUnbiased(t *testing.T) {
	g := NewGenerator(3)
	q, k, v := g.Randn(1, 1, 6, 4), g.Randn(1, 1, 6, 4), g.Randn(1, 1, 6, 4)
	want := ScaledDotProductAttention(q, k, v, AttentionOptions{Causal: true}).Float32s()
	sum := make([]float64, len(want))
	const n = 4000
	gen := NewGenerator(4)
	for range n {
		out := ScaledDotProductAttention(q, k, v, AttentionOptions{Causal: true, Dropout: 0.3, Gen: gen})
		for i, x := range out.Float32s() {
			sum[i] += float64(x) / n
		}
		out.Release()
	}
	for i, w := range want {
		if math.Abs(sum[i]-float64(w)) > 0.05 {
			t.Fatalf("element %d: mean over %d masks %v, without dropout %v", i, n, sum[i], w)
		}
	}
}

func TestAttentionChecksShapes(t *testing.T) {
	for name, fn := range map[string]func(){
		"rank": func() { ScaledDotProductAttention(Zeros(2, 3), Zeros(2, 3), Zeros(2, 3), AttentionOptions{}) },
		"head sizes": func() {
			ScaledDotProductAttention(Zeros(1, 1, 3, 4), Zeros(1, 1, 3, 5), Zeros(1, 1, 3, 4), AttentionOptions{})
		},
		"value rows": func() {
			ScaledDotProductAttention(Zeros(1, 1, 3, 4), Zeros(1, 1, 3, 4), Zeros(1, 1, 2, 4), AttentionOptions{})
		},
		"dropout": func() {
			ScaledDotProductAttention(Zeros(1, 3, 4), Zeros(1, 3, 4), Zeros(1, 3, 4), AttentionOptions{Dropout: 1})
		},
		"packed":      func() { MultiHeadAttention(Zeros(2, 3, 10), 2, AttentionOptions{}) },
		"top-k":       func() { Zeros(3, 4).TopK(5, 1, true) },
		"multinomial": func() { Multinomial(Ones(3), 4, false, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn()
		}()
	}
}

// TestMultinomialIsReproducibleAndFollowsWeights draws with a seeded generator on every device.
func TestMultinomialIsReproducibleAndFollowsWeights(t *testing.T) {
	probs := New([]float32{0.1, 0, 0.6, 0.3, 5, 0, 0, 5}, 2, 4)
	var want []int64
	for _, d := range testDevices {
		got := Multinomial(probs.To(d), 2000, true, NewGenerator(8)).Int64s()
		if want == nil {
			want = got
			counts := [8]int{}
			for r := range 2 {
				for _, j := range got[r*2000 : (r+1)*2000] {
					counts[r*4+int(j)]++
				}
			}
			if counts[1] != 0 || counts[5] != 0 || counts[6] != 0 || math.Abs(float64(counts[2])-1200) > 100 || math.Abs(float64(counts[4])-1000) > 120 {
				t.Fatalf("draw counts %v", counts)
			}
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: draw %d = %d, cpu %d", d, i, got[i], want[i])
			}
		}
		noRepl := Multinomial(probs.To(d), 2, false, NewGenerator(9)).Int64s()
		if noRepl[0] == noRepl[1] || noRepl[2] == noRepl[3] {
			t.Fatalf("%s: draws without replacement repeat: %v", d, noRepl)
		}
	}
}

func TestTopKIndices(t *testing.T) {
	x := New([]float32{1, 5, 3, 5, -1, 2}, 2, 3)
	for _, d := range testDevices {
		v, i := x.To(d).TopK(2, 1, true)
		if got := i.Int64s(); got[0] != 1 || got[1] != 2 || got[2] != 0 || got[3] != 2 {
			t.Fatalf("%s: indices %v", d, got)
		}
		if got := v.Float32s(); got[0] != 5 || got[1] != 3 || got[2] != 5 || got[3] != 2 {
			t.Fatalf("%s: values %v", d, got)
		}
	}
}

// TestMultiHeadAttentionRecyclesItsMemory: once warm, a forward and backward pass of the fused
// attention whose output the caller releases takes its tensors from recycled memory (the output
// alone is 512 KiB; the kernels' scratch comes from a sync.Pool).
func TestMultiHeadAttentionRecyclesItsMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	qkv := Randn(16, 64, 384).SetRequiresGrad(true)
	step := func() {
		y := MultiHeadAttention(qkv, 4, AttentionOptions{Causal: true})
		l := y.Sum()
		y.Release()
		l.Backward()
		l.Release()
		qkv.ZeroGrad()
	}
	for range 3 {
		step()
	}
	bytes := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			step()
		}
	}).AllocedBytesPerOp()
	if bytes > 256<<10 {
		t.Fatalf("a warm attention step allocates %d bytes; its output should come from recycled memory", bytes)
	}
}
