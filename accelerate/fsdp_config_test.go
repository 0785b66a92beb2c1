package accelerate

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
)

// TestFSDPConfigFromLaunchEnvironment reads what `--use_fsdp` and the --fsdp_* flags export
// into Config.FSDP, fields set in the program winning, and refuses unknown values by name.
func TestFSDPConfigFromLaunchEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		plugin *FullyShardedDataParallelPlugin
		want   *FullyShardedDataParallelPlugin
		panics string
	}{
		{name: "off", env: map[string]string{}, want: nil},
		{name: "use_fsdp alone", env: map[string]string{"ACCELERATE_USE_FSDP": "true"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: FullShard, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: FullStateDict, BackwardPrefetch: NoPrefetch}},
		{name: "every key", env: map[string]string{"ACCELERATE_USE_FSDP": "1", "FSDP_SHARDING_STRATEGY": "2", "FSDP_AUTO_WRAP_POLICY": "size_based_wrap",
			"FSDP_MIN_NUM_PARAMS": "5000", "FSDP_TRANSFORMER_CLS_TO_WRAP": "GPT2Block, BertLayer", "FSDP_ACTIVATION_CHECKPOINTING": "true"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: ShardGradOp, AutoWrapPolicy: SizeBasedWrap, MinNumParams: 5000,
				TransformerLayerClsToWrap: []string{"GPT2Block", "BertLayer"}, ActivationCheckpointing: true, StateDictType: FullStateDict, BackwardPrefetch: NoPrefetch}},
		{name: "the program's plugin wins", env: map[string]string{"FSDP_SHARDING_STRATEGY": "NO_SHARD"},
			plugin: &FullyShardedDataParallelPlugin{ShardingStrategy: HybridShard, ShardGroupSize: 2},
			want:   &FullyShardedDataParallelPlugin{ShardingStrategy: HybridShard, ShardGroupSize: 2, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: FullStateDict, BackwardPrefetch: NoPrefetch}},
		{name: "sharded state dict", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_STATE_DICT_TYPE": "sharded_state_dict"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: FullShard, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: ShardedStateDict, BackwardPrefetch: NoPrefetch}},
		{name: "prefetch", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_FORWARD_PREFETCH": "true", "FSDP_BACKWARD_PREFETCH": "backward_pre"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: FullShard, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: FullStateDict,
				ForwardPrefetch: true, BackwardPrefetch: BackwardPre}},
		{name: "prefetch by PyTorch's number", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_BACKWARD_PREFETCH": "2"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: FullShard, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: FullStateDict,
				BackwardPrefetch: BackwardPost}},
		{name: "unknown backward prefetch", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_BACKWARD_PREFETCH": "EARLY"}, panics: "BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH"},
		{name: "bad forward prefetch", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_FORWARD_PREFETCH": "soon"}, panics: "FSDP_FORWARD_PREFETCH"},
		{name: "unknown strategy", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_SHARDING_STRATEGY": "ZERO_4"}, panics: "FULL_SHARD, SHARD_GRAD_OP"},
		{name: "offload", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_OFFLOAD_PARAMS": "true"},
			want: &FullyShardedDataParallelPlugin{ShardingStrategy: FullShard, AutoWrapPolicy: TransformerBasedWrap, MinNumParams: 100_000_000, StateDictType: FullStateDict,
				BackwardPrefetch: NoPrefetch, CPUOffload: true}},
		{name: "bad offload", env: map[string]string{"ACCELERATE_USE_FSDP": "true", "FSDP_OFFLOAD_PARAMS": "yes please"}, panics: "FSDP_OFFLOAD_PARAMS"},
		{name: "bad use_fsdp", env: map[string]string{"ACCELERATE_USE_FSDP": "maybe"}, panics: "ACCELERATE_USE_FSDP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"ACCELERATE_USE_FSDP", "FSDP_SHARDING_STRATEGY", "FSDP_AUTO_WRAP_POLICY", "FSDP_MIN_NUM_PARAMS",
				"FSDP_TRANSFORMER_CLS_TO_WRAP", "FSDP_ACTIVATION_CHECKPOINTING", "FSDP_OFFLOAD_PARAMS", "FSDP_STATE_DICT_TYPE", "FSDP_FORWARD_PREFETCH", "FSDP_BACKWARD_PREFETCH"} {
				t.Setenv(k, tc.env[k])
			}
			var got *FullyShardedDataParallelPlugin
			msg := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				got = Config{FSDP: tc.plugin}.resolve().FSDP
				return ""
			}()
			if tc.panics != "" {
				if !strings.Contains(msg, tc.panics) {
					t.Fatalf("resolve panicked with %q; want a message naming %q", msg, tc.panics)
				}
				return
			}
			if msg != "" {
				t.Fatal(msg)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Config.FSDP = %+v; want %+v", got, tc.want)
			}
		})
	}
}

// TestFSDPUnitsFollowTheWrapPolicy cuts a 3-block GPT into units by each policy: one per block
// (by the Go type, with or without its package), the rest (embeddings, final norm) in the
// root unit first; parameter names show the blocks of a list of layers.
func TestFSDPUnitsFollowTheWrapPolicy(t *testing.T) {
	m := nn.NewGPT(nn.GPTConfig{VocabSize: 8, BlockSize: 4, Layers: 3, Heads: 1, Embed: 4})
	block := len(m.Blocks[0].Parameters())
	for _, tc := range []struct {
		name  string
		p     FullyShardedDataParallelPlugin
		sizes []int // parameters per unit
	}{
		{"by block type", FullyShardedDataParallelPlugin{AutoWrapPolicy: TransformerBasedWrap}, []int{3, block, block, block}},
		{"by package and type", FullyShardedDataParallelPlugin{AutoWrapPolicy: TransformerBasedWrap, TransformerLayerClsToWrap: []string{"nn.TransformerBlock"}}, []int{3, block, block, block}},
		{"no wrap", FullyShardedDataParallelPlugin{AutoWrapPolicy: NoWrap}, []int{3 + 3*block}},
		{"by size", FullyShardedDataParallelPlugin{AutoWrapPolicy: SizeBasedWrap, MinNumParams: 1 << 30}, []int{3 + 3*block}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sizes []int
			for _, u := range wrapUnits(m, tc.p) {
				sizes = append(sizes, len(u.params))
			}
			if !reflect.DeepEqual(sizes, tc.sizes) {
				t.Errorf("units of %v parameters; want %v", sizes, tc.sizes)
			}
		})
	}
	named := []nn.NamedParameter{{Name: "transformer.wte.weight"}, {Name: "transformer.h.0.attn.weight"}, {Name: "transformer.h.0.mlp.weight"}, {Name: "transformer.h.1.attn.weight"}}
	var got []string
	for _, b := range layerBlocks(named) {
		got = append(got, fmt.Sprintf("%s:%d", b.name, len(b.params)))
	}
	if want := []string{"transformer.h.0:2", "transformer.h.1:1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("layer blocks %v; want %v", got, want)
	}
	for name, want := range map[string]bool{"GPT2Block": true, "gpt2.Block": true, "Block": true, "LlamaDecoderLayer": false} {
		if got := matchesClass("gpt2.Block", []string{name}); got != want {
			t.Errorf("gpt2.Block matches %q: %v; want %v", name, got, want)
		}
	}
}
