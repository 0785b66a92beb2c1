package transformers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
)

// counter is a generative model whose next token is the last one plus one (mod vocab), with
// the scores 0 everywhere but 1 there; it records what each Run was given.
type counter struct {
	vocab, maxPos int
	eos           []int
	pad           *int
	calls         []string // each Run's ids, positions and mask
	cacheLen      []int
}

type counterConfig struct{ transformers.BaseConfig }

func (c *counterConfig) Validate() error { return nil }

func (m *counter) Forward(x *tensors.Tensor) *tensors.Tensor { return x }
func (m *counter) Parameters() []*tensors.Tensor             { return nil }
func (m *counter) NamedParameters() []nn.NamedParameter      { return nil }
func (m *counter) PretrainedConfig() transformers.Config     { return &counterConfig{} }
func (m *counter) Architecture() string                      { return "Counter" }
func (m *counter) NewKVCache(b, capacity int) *transformers.KVCache {
	return transformers.NewKVCache(1, b, capacity)
}
func (m *counter) GenerationConfig() transformers.GenerationConfig {
	return transformers.GenerationConfig{EOSTokenIDs: m.eos, PadTokenID: m.pad, MaxPositions: m.maxPos}
}

func (m *counter) Run(in transformers.Inputs) (transformers.Output, error) {
	m.calls = append(m.calls, fmt.Sprintf("ids %v pos %v mask %v", in.InputIDs.Int64s(), in.PositionIDs.Int64s(), in.AttentionMask.Int64s()))
	b, t := in.InputIDs.Size(0), in.InputIDs.Size(1)
	if c := in.PastKeyValues; c != nil {
		m.cacheLen = append(m.cacheLen, c.Len())
		z := tensors.Zeros(b, t, 1, 1)
		if _, _, err := c.Update(0, z, z); err != nil {
			return transformers.Output{}, err
		}
	}
	ids := in.InputIDs.Int64s()
	logits := make([]float32, b*m.vocab)
	for r := range b {
		logits[r*m.vocab+int(ids[r*t+t-1]+1)%m.vocab] = 1
	}
	return transformers.Output{Logits: tensors.New(logits, b, 1, m.vocab)}, nil
}

func rows(t *testing.T, x *tensors.Tensor) [][]int64 {
	t.Helper()
	v, n := x.Int64s(), x.Size(1)
	var out [][]int64
	for i := 0; i < len(v); i += n {
		out = append(out, v[i:i+n])
	}
	return out
}

// TestGenerateStopsEachRowAtItsEndOfSequence: a row that emits an end-of-sequence id (any of
// them) stops and is filled with the pad id (the configuration's, the options', else the first
// end id) while the others go on; generation ends when every row has stopped, or after
// MaxNewTokens; IgnoreEOS runs to MaxNewTokens.
func TestGenerateStopsEachRowAtItsEndOfSequence(t *testing.T) {
	zero, seven := 0, 7
	prompts := tensors.FromInt64([]int64{1, 2, 3, 4, 5, 6}, 3, 2)
	for _, c := range []struct {
		name string
		pad  *int
		opts transformers.GenerateOptions
		want [][]int64
	}{
		{"two end ids", &zero, transformers.GenerateOptions{MaxNewTokens: 6}, [][]int64{{1, 2, 3, 4, 5}, {3, 4, 5, 0, 0}, {5, 6, 7, 8, 9}}},
		{"end ids of the options", &zero, transformers.GenerateOptions{MaxNewTokens: 6, EOSTokenIDs: []int{7}}, [][]int64{{1, 2, 3, 4, 5, 6, 7}, {3, 4, 5, 6, 7, 0, 0}, {5, 6, 7, 0, 0, 0, 0}}},
		{"end ids ignored", &zero, transformers.GenerateOptions{MaxNewTokens: 3, IgnoreEOS: true}, [][]int64{{1, 2, 3, 4, 5}, {3, 4, 5, 6, 7}, {5, 6, 7, 8, 9}}},
		{"no pad id: the first end id pads", nil, transformers.GenerateOptions{MaxNewTokens: 6}, [][]int64{{1, 2, 3, 4, 5}, {3, 4, 5, 5, 5}, {5, 6, 7, 8, 9}}},
		{"pad id of the options", &zero, transformers.GenerateOptions{MaxNewTokens: 6, PadTokenID: &seven}, [][]int64{{1, 2, 3, 4, 5}, {3, 4, 5, 7, 7}, {5, 6, 7, 8, 9}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &counter{vocab: 12, eos: []int{5, 9}, pad: c.pad}
			out, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts}, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := rows(t, out.Sequences); !slices.EqualFunc(got, c.want, slices.Equal) {
				t.Fatalf("generated %v, want %v", got, c.want)
			}
		})
	}
}

// TestGenerateRunsOneTokenPerStepWithTheCache: with the cache the first run takes the prompts,
// every later one the last token with the mask of everything so far and the next position;
// without it every run takes everything.
func TestGenerateRunsOneTokenPerStepWithTheCache(t *testing.T) {
	// Row 0 is left-padded by two (pad id 0, mask given): its positions start at 0 on its first
	// real token.
	prompts := tensors.FromInt64([]int64{0, 0, 3, 1, 2, 3}, 2, 3)
	mask := tensors.FromInt64([]int64{0, 0, 1, 1, 1, 1}, 2, 3)
	for _, noCache := range []bool{false, true} {
		m := &counter{vocab: 50}
		_, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts, AttentionMask: mask}, transformers.GenerateOptions{MaxNewTokens: 3, NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		got := m.calls
		want := []string{
			"ids [0 0 3 1 2 3] pos [0 0 0 0 1 2] mask [0 0 1 1 1 1]",
			"ids [4 4] pos [1 3] mask [0 0 1 1 1 1 1 1]",
			"ids [5 5] pos [2 4] mask [0 0 1 1 1 1 1 1 1 1]",
		}
		if noCache {
			want = []string{
				"ids [0 0 3 1 2 3] pos [0 0 0 0 1 2] mask [0 0 1 1 1 1]",
				"ids [0 0 3 4 1 2 3 4] pos [0 0 0 1 0 1 2 3] mask [0 0 1 1 1 1 1 1]",
				"ids [0 0 3 4 5 1 2 3 4 5] pos [0 0 0 1 2 0 1 2 3 4] mask [0 0 1 1 1 1 1 1 1 1]",
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("NoCache %v: runs\n%s\nwant\n%s", noCache, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if !noCache && !slices.Equal(m.cacheLen, []int{0, 3, 4}) {
			t.Fatalf("the cache held %v tokens at each run, want [0 3 4]", m.cacheLen)
		}
	}
}

// TestGenerateInfersTheMaskFromThePadID: without a mask, prompts holding the pad id (not an end
// id) are masked there, as transformers infers it; with the pad id among the end ids every
// token counts.
func TestGenerateInfersTheMaskFromThePadID(t *testing.T) {
	pad := 0
	prompts := tensors.FromInt64([]int64{0, 7, 1, 2}, 2, 2)
	for _, c := range []struct {
		eos  []int
		want []int64
	}{{[]int{9}, []int64{0, 1, 1, 1}}, {[]int{0}, []int64{1, 1, 1, 1}}} {
		m := &counter{vocab: 50, eos: c.eos, pad: &pad}
		if _, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts}, transformers.GenerateOptions{MaxNewTokens: 1}); err != nil {
			t.Fatal(err)
		}
		if got, want := m.calls[0], fmt.Sprintf("mask %v", c.want); !strings.HasSuffix(got, want) {
			t.Errorf("end ids %v: ran %s, want %s", c.eos, got, want)
		}
	}
}

// TestGenerateSamplingFollowsItsGenerator: a seeded generator repeats its draws; top-k 1 and a
// tiny top-p keep only the likeliest token, so they sample what greedy decoding takes.
func TestGenerateSamplingFollowsItsGenerator(t *testing.T) {
	prompts := tensors.FromInt64([]int64{1, 2, 3, 4}, 2, 2)
	gen := func(opts transformers.GenerateOptions) []int64 {
		t.Helper()
		opts.MaxNewTokens = 8
		out, err := transformers.Generate(&counter{vocab: 6}, transformers.Inputs{InputIDs: prompts}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out.Sequences.Int64s()
	}
	a := gen(transformers.GenerateOptions{DoSample: true, Generator: tensors.NewGenerator(7)})
	b := gen(transformers.GenerateOptions{DoSample: true, Generator: tensors.NewGenerator(7)})
	c := gen(transformers.GenerateOptions{DoSample: true, Generator: tensors.NewGenerator(8)})
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Fatalf("seed 7 twice: %v and %v; seed 8: %v", a, b, c)
	}
	greedy := gen(transformers.GenerateOptions{})
	for _, o := range []transformers.GenerateOptions{{DoSample: true, TopK: 1}, {DoSample: true, TopP: 1e-6}, {DoSample: true, Temperature: 0.01}} {
		if got := gen(o); !slices.Equal(got, greedy) {
			t.Errorf("%+v sampled %v, greedy takes %v", o, got, greedy)
		}
	}
}

// TestGenerateOptionsAndInputsAreChecked: what Generate cannot do is an error naming it.
func TestGenerateOptionsAndInputsAreChecked(t *testing.T) {
	ids := tensors.FromInt64([]int64{1, 2, 3}, 1, 3)
	for _, c := range []struct {
		name string
		m    transformers.Model
		in   transformers.Inputs
		opts transformers.GenerateOptions
		want string
	}{
		{"no new tokens", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{}, "MaxNewTokens must be positive"},
		{"negative top-k", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 1, DoSample: true, TopK: -1}, "TopK must not be negative"},
		{"top-p above 1", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 1, DoSample: true, TopP: 1.5}, "TopP must be in [0, 1]"},
		{"negative temperature", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 1, DoSample: true, Temperature: -1}, "Temperature must be positive"},
		{"sampling options while greedy", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 1, TopK: 5}, "set DoSample: true"},
		{"past the positions", &counter{vocab: 5, maxPos: 8}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 7}, "a prompt of 3 tokens and MaxNewTokens 7 need 9 positions, the model has 8"},
		{"labels", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids, Labels: ids}, transformers.GenerateOptions{MaxNewTokens: 1}, "leave the other Inputs unset"},
		{"float ids", &counter{vocab: 5}, transformers.Inputs{InputIDs: tensors.Zeros(1, 3)}, transformers.GenerateOptions{MaxNewTokens: 1}, "must be non-empty int64 token ids"},
		{"mask of another shape", &counter{vocab: 5}, transformers.Inputs{InputIDs: ids, AttentionMask: tensors.Ones(1, 4)}, transformers.GenerateOptions{MaxNewTokens: 1}, "AttentionMask must be [1, 3]"},
		{"no language modelling head", &encoder{}, transformers.Inputs{InputIDs: ids}, transformers.GenerateOptions{MaxNewTokens: 1}, "has no language modelling head"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := transformers.Generate(c.m, c.in, c.opts)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// encoder is a model without a language modelling head.
type encoder struct{}

func (m *encoder) Forward(x *tensors.Tensor) *tensors.Tensor { return x }
func (m *encoder) Parameters() []*tensors.Tensor             { return nil }
func (m *encoder) NamedParameters() []nn.NamedParameter      { return nil }
func (m *encoder) PretrainedConfig() transformers.Config     { return &counterConfig{} }
func (m *encoder) Architecture() string                      { return "Encoder" }
func (m *encoder) Run(transformers.Inputs) (transformers.Output, error) {
	return transformers.Output{}, nil
}

// TestKVCacheRefusesWhatDoesNotFit: a full cache, another batch, other heads and a gradient being
// recorded are errors naming them.
func TestKVCacheRefusesWhatDoesNotFit(t *testing.T) {
	kv := func(b, n, h int) *tensors.Tensor { return tensors.Zeros(b, n, h, 4) }
	c := transformers.NewKVCache(2, 2, 3)
	if _, _, err := c.Update(0, kv(2, 2, 1), kv(2, 2, 1)); err != nil {
		t.Fatal(err)
	}
	keys, _, err := c.Update(0, kv(2, 1, 1), kv(2, 1, 1))
	if err != nil || !slices.Equal(keys.Shape(), []int{2, 3, 1, 4}) || c.Len() != 3 {
		t.Fatalf("after 3 tokens: %v %v, len %d", err, keys.Shape(), c.Len())
	}
	grad := kv(2, 1, 1).SetRequiresGrad(true)
	for _, x := range []struct {
		name  string
		layer int
		k     *tensors.Tensor
		want  string
	}{
		{"full", 0, kv(2, 1, 1), "exceed the capacity 3"},
		{"batch", 1, kv(3, 1, 1), "a batch of 3 rows given to a cache of 2"},
		{"layer", 2, kv(2, 1, 1), "layer 2 of a cache of 2 layers"},
		{"heads", 0, kv(2, 0, 2), "holds 1 heads of 4, given 2 of 4"},
		{"gradient", 1, grad, "run the model under tensors.NoGrad"},
	} {
		if _, _, err := c.Update(x.layer, x.k, x.k); err == nil || !strings.Contains(err.Error(), x.want) {
			t.Errorf("%s: error %v, want one saying %q", x.name, err, x.want)
		}
	}
}
