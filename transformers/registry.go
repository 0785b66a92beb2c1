package transformers

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Task names a model head, as transformers' Auto classes do: AutoModel is BaseModel,
// AutoModelForSequenceClassification is SequenceClassification, ….
type Task string

// The tasks a family may register an architecture for.
const (
	BaseModel              Task = "base-model"              // AutoModel: hidden states (and pooler)
	SequenceClassification Task = "sequence-classification" // AutoModelForSequenceClassification
	TokenClassification    Task = "token-classification"    // AutoModelForTokenClassification
	MaskedLM               Task = "masked-lm"               // AutoModelForMaskedLM
	CausalLM               Task = "causal-lm"               // AutoModelForCausalLM
)

// Architecture is one model class of a family: its transformers name (config.json's
// "architectures" entry, e.g. "BertForSequenceClassification"), its task and its constructor,
// which builds the model with fresh weights (initialised as transformers initialises them, from
// the tensors package's process-wide generator) from a configuration of its family.
type Architecture struct {
	Name string
	Task Task
	New  func(cfg Config) (Model, error)
}

// Family is what a model family package registers: its model_type, the name of its base model
// inside task models (transformers' base_model_prefix: "bert" in "bert.encoder.…"), a fresh
// configuration with its defaults (for reading config.json into), its architectures, and the
// checkpoint keys that are not weights (non-persistent buffers such as
// "embeddings.position_ids", which older checkpoints hold and transformers drops silently).
type Family struct {
	ModelType       string
	BaseModelPrefix string
	NewConfig       func() Config
	Architectures   []Architecture
	IgnoreOnLoad    []string // suffixes of checkpoint keys to drop without reporting them
}

// architecture returns the family's architecture for task.
func (f *Family) architecture(task Task) (Architecture, error) {
	var names []string
	for _, a := range f.Architectures {
		if a.Task == task {
			return a, nil
		}
		names = append(names, string(a.Task))
	}
	return Architecture{}, fmt.Errorf("model type %q has no %s head; it has: %s", f.ModelType, task, strings.Join(names, ", "))
}

// The registry is filled by the family packages' init functions (as database/sql drivers
// register themselves) and only read afterwards.
var (
	registryMu sync.RWMutex
	registry   = map[string]*Family{}
)

// Register makes a family known to LoadConfig and FromPretrained under its ModelType. Family
// packages call it from init; registering a model type twice panics.
func Register(f Family) {
	if f.ModelType == "" || f.NewConfig == nil || len(f.Architectures) == 0 {
		panic(fmt.Sprintf("transformers: Register: a family needs a ModelType, NewConfig and architectures, have %+v", f))
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[f.ModelType]; dup {
		panic(fmt.Sprintf("transformers: Register: model type %q registered twice", f.ModelType))
	}
	registry[f.ModelType] = &f
}

// SupportedModelTypes returns the registered model types, sorted.
func SupportedModelTypes() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var out []string
	for k := range registry {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func supportedList() string {
	s := SupportedModelTypes()
	if len(s) == 0 {
		return "none (import a family package, e.g. github.com/goaccel/goaccel/transformers/bert)"
	}
	return strings.Join(s, ", ")
}

// familyOf returns the registered family of modelType, or an error naming it and the supported
// ones.
func familyOf(modelType string) (*Family, error) {
	registryMu.RLock()
	f, ok := registry[modelType]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("model_type %q is not supported; supported model types: %s", modelType, supportedList())
	}
	return f, nil
}
