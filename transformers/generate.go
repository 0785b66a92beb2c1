package transformers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// GenerativeModel is a model with a language modelling head that Generate runs
// (GPT2LMHeadModel, LlamaForCausalLM, …: the CausalLM task): Run scores the next token at every
// position, and it takes a KVCache (Inputs.PastKeyValues) so that generating one more token
// costs one position's work.
type GenerativeModel interface {
	Model
	// NewKVCache returns an empty cache for batch rows of up to capacity tokens.
	NewKVCache(batch, capacity int) *KVCache
	// GenerationConfig returns what generation takes from the configuration.
	GenerationConfig() GenerationConfig
}

// GenerationConfig is what Generate takes from a model's configuration when GenerateOptions
// leave it unset (transformers' GenerationConfig.from_model_config).
type GenerationConfig struct {
	BOSTokenID  *int     // bos_token_id
	EOSTokenIDs TokenIDs // eos_token_id: generation of a row stops at any of them
	PadTokenID  *int     // pad_token_id: what a finished row is filled with
	// MaxPositions is the longest sequence the model has positions for (GPT-2's n_positions);
	// 0 when positions are computed, not learned (Llama's rotary embeddings).
	MaxPositions int

	raw []byte // generation_config.json as read, for SavePretrained
}

// GenerationConfigFile is the name of a snapshot's generation settings, as transformers writes
// it beside config.json.
const GenerationConfigFile = "generation_config.json"

// LoadGenerationConfig reads the token ids of dir/generation_config.json: bos_token_id,
// eos_token_id (one or a list, Llama 3 Instruct's <|eot_id|> among them) and pad_token_id. It
// returns nil when the folder has no such file. The file's decoding settings (do_sample,
// temperature, top_p, …) are not Generate's defaults: GenerateOptions say how to decode.
func LoadGenerationConfig(dir string) (*GenerationConfig, error) {
	path := filepath.Join(dir, GenerationConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f struct {
		BOS *int     `json:"bos_token_id"`
		EOS TokenIDs `json:"eos_token_id"`
		Pad *int     `json:"pad_token_id"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &GenerationConfig{BOSTokenID: f.BOS, EOSTokenIDs: f.EOS, PadTokenID: f.Pad, raw: b}, nil
}

// WithFile returns g with the token ids of a generation_config.json (f, from
// LoadGenerationConfig) in place of the configuration's, as transformers' generation_config
// replaces them; g itself when f is nil. The families' GenerationConfig methods use it.
func (g GenerationConfig) WithFile(f *GenerationConfig) GenerationConfig {
	if f != nil {
		g.BOSTokenID, g.EOSTokenIDs, g.PadTokenID, g.raw = f.BOSTokenID, f.EOSTokenIDs, f.PadTokenID, f.raw
	}
	return g
}

// GenerateOptions configure Generate (the arguments of transformers' generate).
type GenerateOptions struct {
	// MaxNewTokens is the most tokens to generate per row (max_new_tokens); it must be positive.
	MaxNewTokens int
	// DoSample draws each token from the model's distribution (do_sample=True); false takes the
	// likeliest token (greedy decoding, do_sample=False).
	DoSample bool
	// Temperature divides the logits before sampling; 0 means 1.
	Temperature float64
	// TopK keeps the TopK likeliest tokens when sampling; 0 keeps all (transformers' own
	// default is 50: set it to match model.generate(do_sample=True)).
	TopK int
	// TopP keeps the likeliest tokens whose probabilities sum to TopP (nucleus sampling); 0 or
	// 1 keeps all.
	TopP float64
	// Generator draws the samples; nil is the process-wide generator (tensors.ManualSeed seeds
	// it). A seeded generator makes sampling repeat exactly.
	Generator *tensors.Generator
	// EOSTokenIDs end a row's generation; nil takes the configuration's eos_token_id.
	EOSTokenIDs []int
	// IgnoreEOS generates MaxNewTokens tokens for every row whatever they are.
	IgnoreEOS bool
	// PadTokenID fills a row after its end-of-sequence token; nil takes the configuration's
	// pad_token_id, else the first end-of-sequence id (as transformers does).
	PadTokenID *int
	// NoCache recomputes the whole sequence for every token instead of attending over a KV
	// cache (use_cache=False): the same tokens, slower.
	NoCache bool
	// OutputScores keeps each step's scores in GenerateOutput.Scores.
	OutputScores bool
}

// GenerateOutput is what Generate returns.
type GenerateOutput struct {
	// Sequences are the prompts followed by the generated tokens: int64 [B, T + steps], a row
	// filled with the pad id after its end-of-sequence token. Generation stops when every row has
	// ended or after MaxNewTokens tokens.
	Sequences *tensors.Tensor
	// Scores, with OutputScores, are each step's scores [B, vocab] (float32): the logits of
	// the last position, after temperature, top-k and top-p when sampling (filtered tokens at
	// -Inf), as transformers' output_scores.
	Scores []*tensors.Tensor
}

// Generate continues the prompts in.InputIDs [B, T] with the model's language modelling head
// (model.generate): greedy decoding or sampling, token by token, each row until it emits an
// end-of-sequence token or MaxNewTokens tokens have been generated. A batch of prompts of
// different lengths is padded on the left, with in.AttentionMask saying which tokens are
// padding (nil: inferred from the pad id as transformers does, else every token counts); the
// positions of each row then count from its first real token (cumsum(mask) − 1, as
// transformers' generate computes them), so a padded prompt generates what it generates alone.
// With a KV cache (the default) each step runs one token per row through the model, attending
// over the cached keys and values of the tokens before it.
//
// The model runs as it is (call nn.SetTraining(model, false) first if it was training:
// FromPretrained returns it in evaluation mode), without recording gradients; under
// tensors.Autocast its matrix products run in 16 bits.
func Generate(m Model, in Inputs, opts GenerateOptions) (out GenerateOutput, err error) {
	fail := func(err error) (GenerateOutput, error) {
		return GenerateOutput{}, fmt.Errorf("transformers: generate with %s: %w", m.Architecture(), err)
	}
	lm, ok := m.(GenerativeModel)
	if !ok {
		return fail(fmt.Errorf("the model has no language modelling head (load it with Options{Task: transformers.CausalLM})"))
	}
	g, err := newGeneration(lm, in, opts)
	if err != nil {
		return fail(err)
	}
	tensors.NoGrad(func() { err = g.run() })
	if err != nil {
		return fail(err)
	}
	return g.output(in.InputIDs.Device()), nil
}

// generation is the state of one Generate call: the sequences, masks and positions of every
// row on the host, which rows are still running, and the cache.
type generation struct {
	lm         GenerativeModel
	opts       GenerateOptions
	eos        []int
	pad        int
	hasPad     bool
	rows, vlen int       // batch rows; current sequence length
	seq, mask  [][]int64 // per row
	pos        [][]int64 // per row
	running    []bool    // per row
	cache      *KVCache  // nil without the cache
	scores     []*tensors.Tensor
	dev        tensors.Device
	sampler    sampler
}

func newGeneration(lm GenerativeModel, in Inputs, opts GenerateOptions) (*generation, error) {
	ids := in.InputIDs
	switch {
	case ids == nil:
		return nil, errors.New("Inputs.InputIDs is nil: give the prompts' token ids [batch, length] (int64)")
	case ids.Dim() != 2 || ids.DType() != tensors.Int64 || ids.Numel() == 0:
		return nil, fmt.Errorf("Inputs.InputIDs must be non-empty int64 token ids [batch, length], have %s %v", ids.DType(), ids.Shape())
	case in.PastKeyValues != nil || in.Labels != nil || in.TokenTypeIDs != nil || in.OutputHiddenStates || in.LogitsToKeep != 0:
		return nil, errors.New("Generate takes InputIDs, AttentionMask and PositionIDs; leave the other Inputs unset")
	case opts.MaxNewTokens < 1:
		return nil, fmt.Errorf("GenerateOptions.MaxNewTokens must be positive, have %d", opts.MaxNewTokens)
	}
	s, err := newSampler(opts)
	if err != nil {
		return nil, err
	}
	b, t := ids.Size(0), ids.Size(1)
	gc := lm.GenerationConfig()
	// The last token is never run through the model: t + MaxNewTokens − 1 positions are.
	if n := t + opts.MaxNewTokens - 1; gc.MaxPositions > 0 && n > gc.MaxPositions {
		return nil, fmt.Errorf("a prompt of %d tokens and MaxNewTokens %d need %d positions, the model has %d: shorten the prompt or generate fewer tokens", t, opts.MaxNewTokens, n, gc.MaxPositions)
	}
	g := &generation{lm: lm, opts: opts, rows: b, vlen: t, dev: ids.Device(), sampler: s}
	g.eos = []int(gc.EOSTokenIDs)
	if opts.EOSTokenIDs != nil {
		g.eos = opts.EOSTokenIDs
	}
	if opts.IgnoreEOS {
		g.eos = nil
	}
	switch {
	case opts.PadTokenID != nil:
		g.pad, g.hasPad = *opts.PadTokenID, true
	case gc.PadTokenID != nil:
		g.pad, g.hasPad = *gc.PadTokenID, true
	case len(g.eos) > 0:
		g.pad, g.hasPad = g.eos[0], true
	}
	flat := ids.Int64s()
	mask, err := generationMask(in.AttentionMask, flat, b, t, g)
	if err != nil {
		return nil, err
	}
	var pos []int64
	if in.PositionIDs != nil {
		if in.PositionIDs.DType() != tensors.Int64 || !slices.Equal(in.PositionIDs.Shape(), ids.Shape()) {
			return nil, fmt.Errorf("Inputs.PositionIDs must be int64 [%d, %d] like InputIDs, have %s %v", b, t, in.PositionIDs.DType(), in.PositionIDs.Shape())
		}
		pos = in.PositionIDs.Int64s()
	}
	for r := range b {
		row := slices.Clone(flat[r*t : (r+1)*t])
		mrow := slices.Clone(mask[r*t : (r+1)*t])
		prow := make([]int64, t)
		if pos != nil {
			copy(prow, pos[r*t:(r+1)*t])
		} else {
			// transformers' _prepare_position_ids_for_generation: cumsum(mask) − 1, padding at 0.
			n := int64(0)
			for j, v := range mrow {
				n += v
				if v != 0 {
					prow[j] = n - 1
				}
			}
		}
		g.seq, g.mask, g.pos = append(g.seq, row), append(g.mask, mrow), append(g.pos, prow)
		g.running = append(g.running, true)
	}
	if !opts.NoCache {
		g.cache = lm.NewKVCache(b, t+opts.MaxNewTokens-1)
	}
	return g, nil
}

// generationMask returns the prompts' attention mask as 0/1 int64 values: the one given, else
// transformers' inference (ids ≠ pad when the pad id occurs in the prompts and is not an
// end-of-sequence id, else every token).
func generationMask(m *tensors.Tensor, ids []int64, b, t int, g *generation) ([]int64, error) {
	out := make([]int64, b*t)
	if m != nil {
		if !slices.Equal(m.Shape(), []int{b, t}) {
			return nil, fmt.Errorf("Inputs.AttentionMask must be [%d, %d] like InputIDs, have %v", b, t, m.Shape())
		}
		for i, v := range m.Float64s() {
			if v != 0 {
				out[i] = 1
			}
		}
		return out, nil
	}
	infer := g.hasPad && slices.Contains(ids, int64(g.pad)) && !slices.Contains(g.eos, g.pad)
	for i, v := range ids {
		if !infer || v != int64(g.pad) {
			out[i] = 1
		}
	}
	return out, nil
}

// run generates until every row has ended or MaxNewTokens tokens are out.
func (g *generation) run() error {
	for step := range g.opts.MaxNewTokens {
		logits, err := g.next(step)
		if err != nil {
			return err
		}
		scores, tokens, err := g.sampler.choose(logits, g.rows)
		if err != nil {
			return err
		}
		if g.opts.OutputScores {
			g.scores = append(g.scores, tensors.New(scores, g.rows, len(scores)/g.rows))
		}
		done := true
		for r, tok := range tokens {
			if !g.running[r] && len(g.eos) > 0 {
				tok = int64(g.pad)
			}
			if g.running[r] && slices.Contains(g.eos, int(tok)) {
				g.running[r] = false
			}
			g.seq[r] = append(g.seq[r], tok)
			g.mask[r] = append(g.mask[r], 1)
			g.pos[r] = append(g.pos[r], g.pos[r][len(g.pos[r])-1]+1)
			done = done && !g.running[r]
		}
		g.vlen++
		if done && len(g.eos) > 0 {
			break
		}
	}
	return nil
}

// next runs the model on what it has not seen (the prompts at step 0; then the last token of
// each row with the cache, everything without) and returns the last position's logits
// [rows·vocab] as float32.
func (g *generation) next(step int) ([]float32, error) {
	from := 0
	if g.cache != nil && step > 0 {
		from = g.vlen - 1
	}
	n := g.vlen - from
	ids := make([]int64, 0, g.rows*n)
	pos := make([]int64, 0, g.rows*n)
	mask := make([]int64, 0, g.rows*g.vlen)
	for r := range g.rows {
		ids = append(ids, g.seq[r][from:]...)
		pos = append(pos, g.pos[r][from:]...)
		mask = append(mask, g.mask[r]...)
	}
	in := Inputs{
		InputIDs:      tensors.FromInt64(ids, g.rows, n).To(g.dev),
		PositionIDs:   tensors.FromInt64(pos, g.rows, n).To(g.dev),
		AttentionMask: tensors.FromInt64(mask, g.rows, g.vlen).To(g.dev),
		PastKeyValues: g.cache,
		LogitsToKeep:  1,
	}
	o, err := g.lm.Run(in)
	if err != nil {
		return nil, err
	}
	n = o.Logits.Size(1)
	logits := o.Logits.Slice(1, n-1, n).Reshape(g.rows, -1).AsType(tensors.Float32).Float32s()
	for _, t := range append([]*tensors.Tensor{o.Logits, o.LastHiddenState, in.InputIDs, in.PositionIDs, in.AttentionMask}, o.HiddenStates...) {
		if t != nil {
			t.Release()
		}
	}
	return logits, nil
}

// output returns the sequences (on the prompts' device) and the scores.
func (g *generation) output(dev tensors.Device) GenerateOutput {
	flat := make([]int64, 0, g.rows*g.vlen)
	for _, row := range g.seq {
		flat = append(flat, row...)
	}
	return GenerateOutput{Sequences: tensors.FromInt64(flat, g.rows, g.vlen).To(dev), Scores: g.scores}
}
