package nn_test

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

type gptFixture struct {
	Config struct {
		VocabSize int  `json:"vocab_size"`
		BlockSize int  `json:"block_size"`
		Layers    int  `json:"n_layer"`
		Heads     int  `json:"n_head"`
		Embed     int  `json:"n_embd"`
		Bias      bool `json:"bias"`
	}
	Keys        []string
	Idx, Target []int64
	Logits      []float32
	Loss        float64
	Grads       map[string][]float32
	AdamWLosses []float64 `json:"adamw_losses"`
	After       map[string][]float32
}

func loadGPT(t *testing.T) (*nn.GPT, *gptFixture) {
	t.Helper()
	b, err := os.ReadFile("testdata/gpt.json")
	if err != nil {
		t.Fatal(err)
	}
	var f gptFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	c := f.Config
	m := nn.NewGPT(nn.GPTConfig{VocabSize: c.VocabSize, BlockSize: c.BlockSize, Layers: c.Layers, Heads: c.Heads, Embed: c.Embed, Bias: c.Bias})
	sd, err := nn.LoadSafetensors("testdata/gpt.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if err := nn.LoadStateDict(m, sd); err != nil {
		t.Fatal(err)
	}
	return m, &f
}

func near(t *testing.T, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); !(d <= atol+rtol*math.Abs(float64(want[i]))) {
			t.Fatalf("%s[%d] = %.8g, PyTorch %.8g", what, i, got[i], want[i])
		}
	}
}

// TestGPTMatchesNanoGPT loads nanoGPT's weights (PyTorch, tied embedding) and compares the
// logits, the loss, every gradient (the tied weight's sums its two uses) and three AdamW steps
// with nanoGPT's decay groups.
func TestGPTMatchesNanoGPT(t *testing.T) {
	m, f := loadGPT(t)
	var names []string
	for _, p := range m.NamedParameters() {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, f.Keys) {
		t.Fatalf("parameter names %v, PyTorch's named_parameters %v", names, f.Keys)
	}
	if m.Head.Weight != m.TokenEmbedding.Weight {
		t.Fatal("the output layer does not share the token embedding")
	}
	b, n := 3, len(f.Idx)/3
	idx := tensors.FromInt64(f.Idx, b, n)
	tgt := tensors.FromInt64(f.Target, b*n)
	lossOf := func() *tensors.Tensor {
		logits := m.Forward(idx)
		flat := logits.Reshape(b*n, -1)
		l := nn.CrossEntropy(flat, tgt)
		logits.Release()
		flat.Release()
		return l
	}
	logits := m.Forward(idx)
	near(t, "logits", logits.Float32s(), f.Logits, 2e-5, 2e-6)
	loss := lossOf()
	near(t, "loss", []float32{float32(loss.Item())}, []float32{float32(f.Loss)}, 1e-5, 1e-6)
	loss.Backward()
	for _, p := range m.NamedParameters() {
		near(t, "grad "+p.Name, p.Param.Grad().Float32s(), f.Grads[p.Name], 1e-4, 2e-6)
	}
	opt := optim.NewAdamWGroups(optim.DecayGroups(m.Parameters(), 0.1), optim.AdamConfig{LR: 1e-2, Beta1: 0.9, Beta2: 0.95})
	opt.ZeroGrad()
	for i, want := range f.AdamWLosses {
		l := lossOf()
		near(t, "AdamW loss", []float32{float32(l.Item())}, []float32{float32(want)}, 1e-5, 1e-6)
		if i == 0 && math.Abs(l.Item()-f.Loss) > 1e-6 {
			t.Fatal("the loss changed before the first step")
		}
		l.Backward()
		opt.Step()
		opt.ZeroGrad()
		l.Release()
	}
	for _, p := range m.NamedParameters() {
		got, want := p.Param.Float32s(), f.After[p.Name]
		if strings.HasSuffix(p.Name, "c_attn.bias") {
			// The keys' bias adds the same q·b to every score of a row, which softmax ignores: its
			// gradient is rounding noise (≈1e-10) that Adam scales up to steps of lr, different
			// in every implementation. Those elements only have to stay within the three steps.
			c := f.Config.Embed
			for i := c; i < 2*c; i++ {
				if d := math.Abs(float64(got[i] - want[i])); d > 3*1e-2 {
					t.Fatalf("%s key bias %d moved %v from PyTorch's", p.Name, i, d)
				}
				got[i] = want[i]
			}
		}
		near(t, "after AdamW "+p.Name, got, want, 1e-4, 1e-5)
	}
}

// TestTiedWeightIsOneParameter: the shared weight counts once everywhere and both uses feed its
// gradient.
func TestTiedWeightIsOneParameter(t *testing.T) {
	tensors.ManualSeed(1)
	cfg := nn.GPTConfig{VocabSize: 11, BlockSize: 6, Layers: 1, Heads: 2, Embed: 8, Bias: false}
	m := nn.NewGPT(cfg)
	ps := m.Parameters()
	seen := map[*tensors.Tensor]bool{}
	total := 0
	for _, p := range ps {
		if seen[p] {
			t.Fatalf("a parameter is listed twice")
		}
		seen[p] = true
		total += p.Numel()
	}
	if nn.NumParameters(m) != total || total != 11*8+6*8+2*8+8*24+8*8+2*8*32+8 {
		t.Fatalf("NumParameters %d, listed %d", nn.NumParameters(m), total)
	}
	sd := nn.StateDict(m)
	if _, ok := sd["lm_head.weight"]; ok || sd["transformer.wte.weight"] == nil {
		t.Fatalf("state dict keys: the tied weight must appear once, as transformer.wte.weight")
	}
	optim.NewAdamW(ps, optim.AdamConfig{}) // panics on a repeated parameter
	// Its gradient is the sum of what the embedding and the output layer give it.
	idx := tensors.FromInt64([]int64{1, 2, 3, 1}, 1, 4)
	m.Forward(idx).Sum().Backward()
	both := m.TokenEmbedding.Weight.Grad().Float32s()
	for _, p := range m.Parameters() {
		p.ZeroGrad()
	}
	// Untie: the output layer's own copy of the weight takes the head's share.
	head := m.TokenEmbedding.Weight.Detach().Clone().SetRequiresGrad(true)
	m.Head.Weight = head
	m.Forward(idx).Sum().Backward()
	emb, out := m.TokenEmbedding.Weight.Grad().Float32s(), head.Grad().Float32s()
	for i := range both {
		if math.Abs(float64(both[i]-emb[i]-out[i])) > 1e-5 {
			t.Fatalf("tied gradient %v ≠ embedding %v + output layer %v at %d", both[i], emb[i], out[i], i)
		}
	}
	if _, ok := nn.StateDict(m)["lm_head.weight"]; !ok {
		t.Fatal("an untied output layer is not in the state dict")
	}
}

// TestGenerateSamplesReproducibly: the same generator seed gives the same text; top-k 1 is greedy.
func TestGenerateSamplesReproducibly(t *testing.T) {
	m, _ := loadGPT(t)
	start := tensors.FromInt64([]int64{1, 2, 3, 4, 5, 6}, 2, 3)
	a := m.Generate(start, 12, nn.GenerateOptions{Temperature: 0.8, Gen: tensors.NewGenerator(3)}).Int64s()
	b := m.Generate(start, 12, nn.GenerateOptions{Temperature: 0.8, Gen: tensors.NewGenerator(3)}).Int64s()
	if !reflect.DeepEqual(a, b) || len(a) != 2*15 {
		t.Fatalf("two runs with one seed: %v and %v", a, b)
	}
	greedy := m.Generate(start, 12, nn.GenerateOptions{TopK: 1, Gen: tensors.NewGenerator(4)})
	g := greedy.Int64s()
	// Greedy decoding picks the arg max at every step (the context slides past BlockSize 10).
	ctx := tensors.FromInt64(g[:3], 1, 3)
	for i := 3; i < 15; i++ {
		var next int64
		tensors.NoGrad(func() {
			logits := m.Forward(ctx.Slice(1, max(0, i-10), i))
			last := logits.Slice(1, logits.Size(1)-1, logits.Size(1)).Reshape(-1)
			next = last.ArgMax(0, false).Int64s()[0]
		})
		if next != g[i] {
			t.Fatalf("greedy token %d = %d, arg max %d", i, g[i], next)
		}
		ctx = tensors.FromInt64(g[:i+1], 1, i+1)
	}
	if m.Training() != true {
		t.Fatal("Generate left the model in evaluation mode")
	}
}

// TestGPTTrainingStepRecyclesMemory: after warm-up a GPT training step allocates little beyond
// bookkeeping: the blocks release their intermediates and ZeroGrad recycles the gradients.
func TestGPTTrainingStepRecyclesMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	tensors.ManualSeed(2)
	m := nn.NewGPT(nn.GPTConfig{VocabSize: 50, BlockSize: 32, Layers: 2, Heads: 4, Embed: 64, Bias: true})
	opt := optim.NewAdamW(m.Parameters(), optim.AdamConfig{LR: 1e-3})
	x, y := tensors.RandInt(0, 50, 8, 32), tensors.RandInt(0, 50, 8*32)
	step := gptStep(m, opt, x, y)
	for range 3 {
		step()
	}
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			step()
		}
	})
	// Tensors of one step: ~4.5 MB (activations, gradients, scratch).
	if bytes := res.AllocedBytesPerOp(); bytes > 400<<10 {
		t.Fatalf("a warm GPT step allocates %d bytes", bytes)
	}
}

// gptStep returns one language-model training step of m on tokens x [batch, n] and next-token
// targets y [batch·n]: forward, cross entropy, backward, the optimizer's step, zero grad, with
// every intermediate released.
func gptStep(m *nn.GPT, opt optim.Optimizer, x, y *tensors.Tensor) func() {
	batch, n := x.Size(0), x.Size(1)
	return func() {
		logits := m.Forward(x)
		flat := logits.Reshape(batch*n, logits.Size(-1))
		loss := nn.CrossEntropy(flat, y)
		logits.Release()
		flat.Release()
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
		loss.Release()
	}
}
