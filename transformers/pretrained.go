package transformers

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers/internal/snapshot"
)

// Options configure FromPretrained (the keyword arguments of from_pretrained).
type Options struct {
	// Task picks the head: BaseModel (the zero value means BaseModel, as AutoModel),
	// SequenceClassification, TokenClassification, MaskedLM, ….
	Task Task
	// DType is the parameters' type: "" or "auto" (config.json's dtype, else the checkpoint's
	// floating type, as transformers 5's dtype="auto"), "float32", "bfloat16" or "float16".
	// Checkpoint tensors of another type are converted.
	DType string
	// NumLabels, when positive, sizes a classification head (classes LABEL_0 …), replacing the
	// configuration's; ID2Label names the classes instead (and sizes the head). Either with a
	// Task that has no classification head (the default, BaseModel) is an error.
	NumLabels int
	ID2Label  map[int]string
	// ProblemType overrides the configuration's (see BaseConfig.ProblemType).
	ProblemType string
	// IgnoreMismatchedSizes leaves a parameter whose checkpoint tensor has another shape newly
	// initialised and reports it, instead of failing.
	IgnoreMismatchedSizes bool
	// Log receives the load report when it has something to say (transformers logs it as a
	// warning); nil writes it to standard error, io.Discard silences it.
	Log io.Writer
}

// FromPretrained builds the model of a snapshot folder (config.json and model.safetensors, or
// shards with model.safetensors.index.json) for opts.Task and loads its weights, as
// AutoModel…from_pretrained does: the family comes from config.json's model_type (its package
// must be imported: a cell imports every family with this package), the checkpoint's names are
// mapped onto the model's with or without the base model prefix ("bert." …) whichever way the
// checkpoint was saved, tied weights are filled from whichever name the checkpoint holds,
// parameters the checkpoint lacks (a new head) keep their fresh initialisation and are listed
// in the report, which is also written to opts.Log. The model is returned in evaluation mode,
// as transformers returns it: call nn.SetTraining(model, true) before training.
//
// Errors name what is wrong: the folder or file that is missing or truncated, the tensor whose
// shape does not fit the configuration (with both shapes and the file), the model_type that is
// not supported (with the supported ones).
func FromPretrained(dir string, opts Options) (Model, LoadReport, error) {
	fail := func(err error) (Model, LoadReport, error) {
		return nil, LoadReport{}, fmt.Errorf("transformers: from pretrained %s: %w", dir, err)
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		return nil, LoadReport{}, err
	}
	base := cfg.Base()
	f, _ := familyOf(base.ModelType)
	task := opts.Task
	if task == "" {
		task = BaseModel
	}
	arch, err := f.architecture(task)
	if err != nil {
		return fail(err)
	}
	if (opts.NumLabels > 0 || len(opts.ID2Label) > 0) && task != SequenceClassification && task != TokenClassification {
		return fail(fmt.Errorf("Options.NumLabels and ID2Label size a classification head, and the task %s has none (%s): set Options.Task to transformers.SequenceClassification (AutoModelForSequenceClassification) or TokenClassification", task, arch.Name))
	}
	switch {
	case len(opts.ID2Label) > 0:
		base.ID2Label, base.Label2ID = opts.ID2Label, map[string]int{}
		for i, n := range opts.ID2Label {
			base.Label2ID[n] = i
		}
	case opts.NumLabels > 0:
		base.SetNumLabels(opts.NumLabels)
	}
	if opts.ProblemType != "" {
		base.ProblemType = opts.ProblemType
	}
	w, err := snapshot.Read(dir)
	if err != nil {
		return fail(err)
	}
	dt, err := resolveDType(opts.DType, base.DType, w)
	if err != nil {
		return fail(err)
	}
	base.DType = dt.String()
	m, err := arch.New(cfg)
	if err != nil {
		return fail(err)
	}
	if _, ok := m.(GenerativeModel); ok {
		if base.Generation, err = LoadGenerationConfig(dir); err != nil {
			return fail(err)
		}
	}
	report, err := loadWeights(m, f, w, opts.IgnoreMismatchedSizes)
	if err != nil {
		return fail(err)
	}
	report.Model, report.Checkpoint = arch.Name, dir
	nn.SetTraining(m, false)
	if !report.Empty() {
		out := opts.Log
		if out == nil {
			out = os.Stderr
		}
		fmt.Fprint(out, report.String())
	}
	return m, report, nil
}

// ParseDType maps the names transformers uses for parameter types ("float32", "bfloat16",
// "float16", with or without "torch.") to a tensors.DType.
func ParseDType(name string) (tensors.DType, error) {
	switch strings.TrimPrefix(name, "torch.") {
	case "float32", "float":
		return tensors.Float32, nil
	case "bfloat16":
		return tensors.BFloat16, nil
	case "float16", "half":
		return tensors.Float16, nil
	}
	return 0, fmt.Errorf("dtype %q is not one goaccel loads parameters in (float32, bfloat16, float16)", name)
}

// resolveDType is transformers 5's dtype="auto": the option, else the configuration's, else
// the type of the checkpoint's floating tensors.
func resolveDType(option, configured string, w *snapshot.Weights) (tensors.DType, error) {
	switch {
	case option != "" && option != "auto":
		return ParseDType(option)
	case configured != "":
		return ParseDType(configured)
	}
	for _, k := range slices.Sorted(maps.Keys(w.Tensors)) {
		if dt := w.Tensors[k].DType(); dt != tensors.Int64 && dt != tensors.Float64 {
			return dt, nil
		}
	}
	return tensors.Float32, nil
}

// SaveOptions configure SavePretrained.
type SaveOptions struct {
	// MaxShardSize is the largest weight file, as transformers writes it ("5GB", "500MB",
	// "100KiB", or a number of bytes); empty means transformers' default, "50GB". Weights
	// above it are split into model-0000i-of-0000n.safetensors with
	// model.safetensors.index.json.
	MaxShardSize string
}

// SavePretrained writes m to dir (created if needed) as transformers' save_pretrained does:
// config.json (the model's configuration with its architecture and dtype, keys it does not know
// kept as read) and its weights in safetensors with {"format": "pt"}, sharded above
// opts.MaxShardSize, each tied weight once under its first name. transformers'
// from_pretrained loads the folder, and so does FromPretrained.
//
// m is a Model (FromPretrained's, a family's constructor's); it is taken as an nn.Module so that
// what accelerate's UnwrapModel returns for a prepared model saves as it is, as
// accelerator.unwrap_model(model).save_pretrained(dir) does. Any other module is an error.
func SavePretrained(dir string, m nn.Module, opts SaveOptions) error {
	fail := func(err error) error { return fmt.Errorf("transformers: save pretrained %s: %w", dir, err) }
	pm, ok := m.(Model)
	if !ok {
		return fail(fmt.Errorf("%T is not a pretrained model (a transformers.Model, as FromPretrained returns, or what UnwrapModel returns for one); save other modules with nn.SaveSafetensors", m))
	}
	limit, err := ParseSize(opts.MaxShardSize)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	cfg := pm.PretrainedConfig()
	base := cfg.Base()
	base.Architectures = []string{pm.Architecture()}
	entries := uniqueEntries(pm)
	sd := make(map[string]*tensors.Tensor, len(entries))
	order := make([]string, len(entries))
	for i, e := range entries {
		sd[e.Name], order[i] = e.Param.Detach(), e.Name
	}
	if len(entries) > 0 {
		base.DType = entries[0].Param.DType().String()
	}
	b, err := MarshalConfig(cfg)
	if err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), b, 0o644); err != nil {
		return fail(err)
	}
	if _, err := snapshot.Write(dir, sd, order, limit, map[string]string{"format": "pt"}); err != nil {
		return fail(err)
	}
	if g := base.Generation; g != nil && g.raw != nil {
		if err := os.WriteFile(filepath.Join(dir, GenerationConfigFile), g.raw, 0o644); err != nil {
			return fail(err)
		}
	}
	return nil
}

// uniqueEntries are m's parameters and buffers in order, each tensor once under its first name.
func uniqueEntries(m nn.Module) []nn.NamedParameter {
	seen := map[*tensors.Tensor]bool{}
	var out []nn.NamedParameter
	for _, p := range append(m.NamedParameters(), nn.NamedBuffersOf(m)...) {
		if !seen[p.Param] {
			seen[p.Param] = true
			out = append(out, p)
		}
	}
	return out
}

// SaveWeights writes a state dict into dir as a snapshot folder's weights, in order: one
// model.safetensors, or, when the tensors take more than maxShardBytes, Hugging Face's sharded
// layout (model-0000i-of-0000n.safetensors and model.safetensors.index.json) that transformers'
// from_pretrained and FromPretrained read. It returns the files written. SavePretrained writes
// a model's weights so; accelerate's SaveModel writes a prepared model's.
func SaveWeights(dir string, sd map[string]*tensors.Tensor, order []string, maxShardBytes int64) ([]string, error) {
	files, err := snapshot.Write(dir, sd, order, maxShardBytes, map[string]string{"format": "pt"})
	if err != nil {
		return nil, fmt.Errorf("transformers: save the weights in %s: %w", dir, err)
	}
	return files, nil
}

// ParseSize reads a size as huggingface_hub does: a number of bytes, or one with a unit (KB, MB,
// GB, TB are powers of 1000; KiB, MiB, GiB, TiB of 1024; Kb, Mb, Gb bits). Empty is "50GB".
func ParseSize(s string) (int64, error) {
	if s == "" {
		s = "50GB"
	}
	units := []struct {
		suffix string
		mult   float64
	}{
		{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
		{"Tb", 1e12 / 8}, {"Gb", 1e9 / 8}, {"Mb", 1e6 / 8}, {"Kb", 1e3 / 8}, {"B", 1},
	}
	num, mult := strings.TrimSpace(s), 1.0
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("max shard size %q is not a positive size such as \"5GB\", \"500MB\" or a number of bytes", s)
	}
	return int64(v * mult), nil
}
