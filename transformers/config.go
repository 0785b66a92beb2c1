package transformers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// ConfigFile is the name of a snapshot's configuration, as transformers writes it.
const ConfigFile = "config.json"

// Config is a model family's configuration: the keys of config.json as a Go struct that embeds
// BaseConfig (the keys every family shares). Families define it (bert.Config, …);
// LoadConfig reads any registered one.
type Config interface {
	// Base returns the shared keys.
	Base() *BaseConfig
	// Validate reports a configuration the family cannot build, naming the key.
	Validate() error
}

// BaseConfig holds the config.json keys every model family shares (transformers'
// PreTrainedConfig). Keys a family does not declare are kept as they were read, so that
// SavePretrained writes them back.
type BaseConfig struct {
	ModelType     string   `json:"model_type"`
	Architectures []string `json:"architectures,omitempty"`
	// ID2Label names the classes of a classification head; its length is the number of labels
	// (2 when empty, as in transformers).
	ID2Label map[int]string `json:"id2label,omitempty"`
	Label2ID map[string]int `json:"label2id,omitempty"`
	// ProblemType picks a sequence classification loss: "regression" (MSE),
	// "single_label_classification" (cross entropy) or "multi_label_classification" (binary
	// cross entropy with logits); empty chooses as transformers does, from the number of labels
	// and the labels' type.
	ProblemType string `json:"problem_type,omitempty"`
	PadTokenID  *int   `json:"pad_token_id,omitempty"`
	// TieWordEmbeddings ties an output layer to the input embedding (nil: the family's default).
	TieWordEmbeddings *bool `json:"tie_word_embeddings,omitempty"`
	// DType is the parameters' type: "float32", "bfloat16" or "float16" (config.json's dtype,
	// or torch_dtype in files written before transformers 5); empty means float32.
	DType               string `json:"dtype,omitempty"`
	TransformersVersion string `json:"transformers_version,omitempty"`
	// Generation holds the token ids of the snapshot's generation_config.json, which
	// FromPretrained reads for a language model: Generate takes its end-of-sequence, padding and
	// start ids in place of the configuration's (transformers' generation_config replaces the ids
	// of config.json), and SavePretrained writes the file back. Nil without that file.
	Generation *GenerationConfig `json:"-"`

	raw map[string]json.RawMessage // every key of the file read, for writing back
}

// Base implements Config.
func (c *BaseConfig) Base() *BaseConfig { return c }

// NumLabels is the number of classes of a classification head: len(ID2Label), or 2.
func (c *BaseConfig) NumLabels() int {
	if len(c.ID2Label) > 0 {
		return len(c.ID2Label)
	}
	return 2
}

// SetNumLabels names n classes LABEL_0 … LABEL_{n-1}, as transformers' num_labels argument
// does, unless ID2Label already has n entries.
func (c *BaseConfig) SetNumLabels(n int) {
	if len(c.ID2Label) == n {
		return
	}
	c.ID2Label, c.Label2ID = map[int]string{}, map[string]int{}
	for i := range n {
		name := "LABEL_" + strconv.Itoa(i)
		c.ID2Label[i], c.Label2ID[name] = name, i
	}
}

// ReadConfigJSON returns the model_type of config.json's bytes (empty when absent) and every key.
func readConfigJSON(b []byte) (string, map[string]json.RawMessage, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return "", nil, err
	}
	var mt string
	if v, ok := raw["model_type"]; ok {
		if err := json.Unmarshal(v, &mt); err != nil {
			return "", nil, fmt.Errorf("model_type: %w", err)
		}
	}
	return mt, raw, nil
}

// LoadConfig reads dir/config.json into its family's configuration (bert.Config for
// "model_type": "bert", …): AutoConfig.from_pretrained. The family must be registered (its
// package imported); an unknown model_type is an error naming the supported ones.
func LoadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, ConfigFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("transformers: load config: %w (a model snapshot folder holds config.json beside its weights)", err)
	}
	cfg, err := ParseConfig(b)
	if err != nil {
		return nil, fmt.Errorf("transformers: load config %s: %w", path, err)
	}
	return cfg, nil
}

// ParseConfig parses the bytes of a config.json into its family's configuration (see
// LoadConfig).
func ParseConfig(b []byte) (Config, error) {
	mt, raw, err := readConfigJSON(b)
	if err != nil {
		return nil, err
	}
	if mt == "" {
		return nil, fmt.Errorf("no model_type key; supported model types: %s", supportedList())
	}
	f, err := familyOf(mt)
	if err != nil {
		return nil, err
	}
	cfg := f.NewConfig()
	if err := json.Unmarshal(b, cfg); err != nil {
		return nil, err
	}
	base := cfg.Base()
	base.raw = raw
	if base.DType == "" {
		if v, ok := raw["torch_dtype"]; ok {
			_ = json.Unmarshal(v, &base.DType) // a non-string torch_dtype is left to the weights
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// MarshalConfig returns cfg as config.json: its keys sorted and indented as transformers writes
// them, keys the family does not declare kept as read.
func MarshalConfig(cfg Config) ([]byte, error) {
	typed, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(typed, &fields); err != nil {
		return nil, err
	}
	out := maps.Clone(cfg.Base().raw)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	delete(out, "torch_dtype") // written as dtype, as transformers 5 does
	maps.Copy(out, fields)
	var buf bytes.Buffer
	buf.WriteString("{\n")
	for i, k := range slices.Sorted(maps.Keys(out)) {
		var v bytes.Buffer
		if err := json.Indent(&v, out[k], "  ", "  "); err != nil {
			return nil, fmt.Errorf("config key %q: %w", k, err)
		}
		key, _ := json.Marshal(k)
		fmt.Fprintf(&buf, "  %s: %s", key, v.Bytes())
		if i < len(out)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}
