package accelerate

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ShardingStrategy says what fully sharded data parallelism splits across processes
// (PyTorch's ShardingStrategy; FSDP2 says it with reshard_after_forward and a 2-D mesh).
type ShardingStrategy string

// The sharding strategies, under the names Accelerate's config files and
// --fsdp_sharding_strategy use.
const (
	// FullShard splits parameters, gradients and optimizer state (ZeRO-3): a unit's parameters
	// are gathered for its forward pass and again for its backward pass, and freed after each.
	FullShard ShardingStrategy = "FULL_SHARD"
	// ShardGradOp splits gradients and optimizer state (ZeRO-2): parameters gathered in the
	// forward pass stay until the end of the backward pass.
	ShardGradOp ShardingStrategy = "SHARD_GRAD_OP"
	// NoShard splits nothing: every process holds everything, as DDP (the same gradient
	// all-reduce runs).
	NoShard ShardingStrategy = "NO_SHARD"
	// HybridShard shards as FullShard within each group of ShardGroupSize processes (a
	// machine's) and replicates across groups: the gathers and reduce-scatters run within a
	// group, and an all-reduce of the gradient shards across the groups.
	HybridShard ShardingStrategy = "HYBRID_SHARD"
)

// Auto-wrap policies (FullyShardedDataParallelPlugin.AutoWrapPolicy): how a model is cut into
// units, the sets of parameters gathered and freed together.
const (
	// TransformerBasedWrap makes a unit of each module whose type TransformerLayerClsToWrap names.
	TransformerBasedWrap = "TRANSFORMER_BASED_WRAP"
	// SizeBasedWrap makes units of consecutive parameters of at least MinNumParams elements.
	SizeBasedWrap = "SIZE_BASED_WRAP"
	// NoWrap makes one unit of the whole model.
	NoWrap = "NO_WRAP"
)

// State dict types (FullyShardedDataParallelPlugin.StateDictType).
const (
	FullStateDict    = "FULL_STATE_DICT"
	ShardedStateDict = "SHARDED_STATE_DICT"
)

// FullyShardedDataParallelPlugin configures fully sharded data parallelism (Accelerate's
// FullyShardedDataParallelPlugin, FSDP2 semantics): each process keeps 1/N of each parameter,
// of its gradient and of the optimizer state, and gathers a unit's parameters only while a
// forward or backward pass needs them. The training loop does not change. Set Config.FSDP, or
// launch with `%accelerate launch --use_fsdp` (ACCELERATE_USE_FSDP=true and the FSDP_*
// variables, which fill the fields left zero). Under Config.MixedPrecision "bf16" the units are
// all-gathered in bfloat16 from float32 shards, and gradients reduce-scattered in float32.
type FullyShardedDataParallelPlugin struct {
	// ShardingStrategy is FullShard (the default), ShardGradOp, NoShard or HybridShard
	// (FSDP_SHARDING_STRATEGY: the name or Accelerate's number, 1 to 4).
	ShardingStrategy ShardingStrategy
	// AutoWrapPolicy is TransformerBasedWrap (the default), SizeBasedWrap or NoWrap
	// (FSDP_AUTO_WRAP_POLICY). Parameters outside every unit form the root unit.
	AutoWrapPolicy string
	// TransformerLayerClsToWrap names the module types that make units, by their Go type name
	// ("TransformerBlock", or with the package: "nn.TransformerBlock") or as transformers' Python
	// class ("GPT2Block" is gpt2.Block) (FSDP_TRANSFORMER_CLS_TO_WRAP, comma separated); empty
	// means the model's own NoSplitModules, else the blocks of nn.GPT and of package
	// transformers' families (TransformerBlock, GPT2Block, LlamaDecoderLayer, BertLayer).
	TransformerLayerClsToWrap []string
	// MinNumParams is SizeBasedWrap's unit size in elements (FSDP_MIN_NUM_PARAMS; 0 means 1e8,
	// Accelerate's default).
	MinNumParams int
	// ActivationCheckpointing recomputes each block's activations in the backward pass
	// (FSDP_ACTIVATION_CHECKPOINTING): the model must implement nn.GradientCheckpointer.
	ActivationCheckpointing bool
	// StateDictType is how SaveState writes a sharded model: FullStateDict (the default:
	// gathered whole, model.safetensors on rank 0) or ShardedStateDict (each process writes its
	// shards, model_fsdp/rank<r>.safetensors with an index) (FSDP_STATE_DICT_TYPE). LoadState
	// reads either, on any number of processes.
	StateDictType string
	// ForwardPrefetch starts the all-gather of the next unit of the forward pass while the
	// current one computes (FSDP_FORWARD_PREFETCH, fsdp_forward_prefetch). The next unit is
	// the one the last forward pass gathered next; at most one unit more is held at a time.
	ForwardPrefetch bool
	// BackwardPrefetch is BackwardPre, BackwardPost or NoPrefetch (the default, as
	// Accelerate's) (FSDP_BACKWARD_PREFETCH, fsdp_backward_prefetch; also PyTorch's numbers 1
	// and 2): when the next unit of the backward pass starts its all-gather. Whatever the
	// policy, a unit's gradients are reduce-scattered while the backward pass goes on.
	BackwardPrefetch string
	// CPUOffload keeps each process's shards of the parameters, their gradients and the
	// optimizer state in host memory (FSDP_OFFLOAD_PARAMS, fsdp_offload_params; Accelerate's
	// cpu_offload): a unit is copied to the device when it is gathered, its gradients come
	// back to the host shards, and the optimizer steps on the CPU. The device then holds
	// only the gathered units and the activations.
	CPUOffload bool
	// ShardGroupSize is HybridShard's group of processes that share one copy of the model; 0
	// means the processes of one machine (LOCAL_WORLD_SIZE). It must divide the process count.
	ShardGroupSize int
}

// noSplitModules is implemented by models that name their blocks (transformers' _no_split_modules).
type noSplitModules interface{ NoSplitModules() []string }

// fsdpFromEnv returns the plugin `--use_fsdp` asks for through the environment (nil without
// ACCELERATE_USE_FSDP=true), or fills p's zero fields from it.
func fsdpFromEnv(p *FullyShardedDataParallelPlugin) *FullyShardedDataParallelPlugin {
	if p == nil {
		v := os.Getenv("ACCELERATE_USE_FSDP")
		if v == "" {
			return nil
		}
		on, err := strconv.ParseBool(v)
		if err != nil {
			panic(fmt.Sprintf("accelerate: ACCELERATE_USE_FSDP is %q; use true or false", v))
		}
		if !on {
			return nil
		}
		p = &FullyShardedDataParallelPlugin{}
	}
	q := *p
	if q.ShardingStrategy == "" {
		q.ShardingStrategy = ShardingStrategy(os.Getenv("FSDP_SHARDING_STRATEGY"))
	}
	if q.AutoWrapPolicy == "" {
		q.AutoWrapPolicy = os.Getenv("FSDP_AUTO_WRAP_POLICY")
	}
	if len(q.TransformerLayerClsToWrap) == 0 {
		for _, c := range strings.Split(os.Getenv("FSDP_TRANSFORMER_CLS_TO_WRAP"), ",") {
			if c = strings.TrimSpace(c); c != "" {
				q.TransformerLayerClsToWrap = append(q.TransformerLayerClsToWrap, c)
			}
		}
	}
	if q.MinNumParams == 0 {
		if v := os.Getenv("FSDP_MIN_NUM_PARAMS"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				panic(fmt.Sprintf("accelerate: FSDP_MIN_NUM_PARAMS is %q; use a whole number ≥ 1", v))
			}
			q.MinNumParams = n
		}
	}
	if v := os.Getenv("FSDP_ACTIVATION_CHECKPOINTING"); v != "" && !q.ActivationCheckpointing {
		on, err := strconv.ParseBool(v)
		if err != nil {
			panic(fmt.Sprintf("accelerate: FSDP_ACTIVATION_CHECKPOINTING is %q; use true or false", v))
		}
		q.ActivationCheckpointing = on
	}
	if q.StateDictType == "" {
		q.StateDictType = os.Getenv("FSDP_STATE_DICT_TYPE")
	}
	if v := os.Getenv("FSDP_FORWARD_PREFETCH"); v != "" && !q.ForwardPrefetch {
		on, err := strconv.ParseBool(v)
		if err != nil {
			panic(fmt.Sprintf("accelerate: FSDP_FORWARD_PREFETCH is %q; use true or false", v))
		}
		q.ForwardPrefetch = on
	}
	if q.BackwardPrefetch == "" {
		q.BackwardPrefetch = os.Getenv("FSDP_BACKWARD_PREFETCH")
	}
	if v := os.Getenv("FSDP_OFFLOAD_PARAMS"); v != "" && !q.CPUOffload {
		on, err := strconv.ParseBool(v)
		if err != nil {
			panic(fmt.Sprintf("accelerate: FSDP_OFFLOAD_PARAMS is %q; use true or false", v))
		}
		q.CPUOffload = on
	}
	return &q
}

// resolve applies the defaults and checks every field.
func (p FullyShardedDataParallelPlugin) resolve() FullyShardedDataParallelPlugin {
	switch strings.ToUpper(string(p.ShardingStrategy)) {
	case "", "1", string(FullShard):
		p.ShardingStrategy = FullShard
	case "2", string(ShardGradOp):
		p.ShardingStrategy = ShardGradOp
	case "3", string(NoShard):
		p.ShardingStrategy = NoShard
	case "4", string(HybridShard):
		p.ShardingStrategy = HybridShard
	default:
		panic(fmt.Sprintf("accelerate: FSDP ShardingStrategy is %q; use FULL_SHARD, SHARD_GRAD_OP, NO_SHARD or HYBRID_SHARD (or 1 to 4)", p.ShardingStrategy))
	}
	p.AutoWrapPolicy = strings.ToUpper(p.AutoWrapPolicy)
	if p.AutoWrapPolicy == "" {
		p.AutoWrapPolicy = TransformerBasedWrap
	}
	checkChoice("FSDP AutoWrapPolicy", p.AutoWrapPolicy, TransformerBasedWrap, SizeBasedWrap, NoWrap)
	if p.MinNumParams == 0 {
		p.MinNumParams = 100_000_000
	}
	p.StateDictType = strings.ToUpper(p.StateDictType)
	if p.StateDictType == "" {
		p.StateDictType = FullStateDict
	}
	checkChoice("FSDP StateDictType", p.StateDictType, FullStateDict, ShardedStateDict)
	bp, err := parseBackwardPrefetch(strings.ToUpper(strings.TrimSpace(p.BackwardPrefetch)))
	if err != nil {
		panic("accelerate: " + err.Error())
	}
	p.BackwardPrefetch = bp
	if p.MinNumParams < 0 {
		panic(fmt.Sprintf("accelerate: FSDP MinNumParams is %d; use a positive element count (or 0 for 1e8)", p.MinNumParams))
	}
	if p.ShardGroupSize < 0 {
		panic(fmt.Sprintf("accelerate: FSDP ShardGroupSize is %d; use a positive process count (or 0 for the processes of one machine)", p.ShardGroupSize))
	}
	return p
}
