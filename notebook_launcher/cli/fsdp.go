package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// FSDPConfig is a config file's fsdp_config, under Accelerate's keys (FSDP1's
// fsdp_sharding_strategy and FSDP2's fsdp_reshard_after_forward both read).
// fsdp_forward_prefetch and fsdp_backward_prefetch are read under fsdp_version 1 and 2
// alike (Accelerate's FSDP2 has no key of its own for them). Keys that only change how
// PyTorch wraps or loads the model (fsdp_use_orig_params, fsdp_sync_module_states,
// fsdp_cpu_ram_efficient_loading) are read and have no effect: goaccel always starts from
// rank 0's parameters.
type FSDPConfig struct {
	ShardingStrategy          string `yaml:"fsdp_sharding_strategy,omitempty"`
	ReshardAfterForward       *bool  `yaml:"fsdp_reshard_after_forward,omitempty"`
	AutoWrapPolicy            string `yaml:"fsdp_auto_wrap_policy,omitempty"`
	TransformerLayerClsToWrap string `yaml:"fsdp_transformer_layer_cls_to_wrap,omitempty"`
	MinNumParams              int    `yaml:"fsdp_min_num_params,omitempty"`
	ActivationCheckpointing   bool   `yaml:"fsdp_activation_checkpointing,omitempty"`
	OffloadParams             bool   `yaml:"fsdp_offload_params,omitempty"`
	Version                   int    `yaml:"fsdp_version,omitempty"`
	StateDictType             string `yaml:"fsdp_state_dict_type,omitempty"`
	UseOrigParams             *bool  `yaml:"fsdp_use_orig_params,omitempty"`
	SyncModuleStates          *bool  `yaml:"fsdp_sync_module_states,omitempty"`
	CPURAMEfficientLoading    *bool  `yaml:"fsdp_cpu_ram_efficient_loading,omitempty"`
	ForwardPrefetch           *bool  `yaml:"fsdp_forward_prefetch,omitempty"`
	BackwardPrefetch          string `yaml:"fsdp_backward_prefetch,omitempty"`
}

// validate reports a setting goaccel cannot honour.
func (c *FSDPConfig) validate() error {
	if c == nil {
		return nil
	}
	if c.Version != 0 && c.Version != 1 && c.Version != 2 {
		return fmt.Errorf("fsdp_version is %d; use 1 or 2 (goaccel's sharding follows FSDP2)", c.Version)
	}
	switch strings.ToUpper(c.ShardingStrategy) {
	case "", "1", "2", "3", "4", "FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD":
	default:
		return fmt.Errorf("fsdp_sharding_strategy is %q; use FULL_SHARD, SHARD_GRAD_OP, NO_SHARD or HYBRID_SHARD", c.ShardingStrategy)
	}
	switch strings.ToUpper(c.BackwardPrefetch) {
	case "", "1", "2", "3", "BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH":
	default:
		return fmt.Errorf("fsdp_backward_prefetch is %q; use BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH", c.BackwardPrefetch)
	}
	switch strings.ToUpper(c.StateDictType) {
	case "", "FULL_STATE_DICT", "SHARDED_STATE_DICT":
	default:
		return fmt.Errorf("fsdp_state_dict_type is %q; use FULL_STATE_DICT or SHARDED_STATE_DICT", c.StateDictType)
	}
	switch strings.ToUpper(c.AutoWrapPolicy) {
	case "", "TRANSFORMER_BASED_WRAP", "SIZE_BASED_WRAP", "NO_WRAP":
	default:
		return fmt.Errorf("fsdp_auto_wrap_policy is %q; use TRANSFORMER_BASED_WRAP, SIZE_BASED_WRAP or NO_WRAP", c.AutoWrapPolicy)
	}
	return nil
}

// fsdpFlags are `accelerate launch`'s FSDP flags.
type fsdpFlags struct {
	use                                            bool
	strategy, wrapPolicy, clsToWrap, reshard, ckpt string
	offload, stateDict                             string
	forwardPrefetch, backwardPrefetch              string
	minParams, version                             int
}

func (f *fsdpFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.use, "use_fsdp", false, "shard parameters, gradients and optimizer state across the processes (fully sharded data parallelism)")
	fs.StringVar(&f.strategy, "fsdp_sharding_strategy", "", "FULL_SHARD, SHARD_GRAD_OP, NO_SHARD or HYBRID_SHARD (or 1 to 4)")
	fs.StringVar(&f.reshard, "fsdp_reshard_after_forward", "", "FSDP2's form of the strategy: true (FULL_SHARD) or false (SHARD_GRAD_OP)")
	fs.StringVar(&f.wrapPolicy, "fsdp_auto_wrap_policy", "", "TRANSFORMER_BASED_WRAP, SIZE_BASED_WRAP or NO_WRAP")
	fs.StringVar(&f.clsToWrap, "fsdp_transformer_layer_cls_to_wrap", "", "comma-separated block types that make the units (GPT2Block, TransformerBlock, …)")
	fs.StringVar(&f.stateDict, "fsdp_state_dict_type", "", "FULL_STATE_DICT (SaveState gathers the model on rank 0) or SHARDED_STATE_DICT (each process writes its shards)")
	fs.IntVar(&f.minParams, "fsdp_min_num_params", 0, "SIZE_BASED_WRAP's unit size in parameters")
	fs.StringVar(&f.ckpt, "fsdp_activation_checkpointing", "", "true: recompute each block's activations in the backward pass")
	fs.StringVar(&f.offload, "fsdp_offload_params", "", "true: keep the shards, their gradients and the optimizer state in host memory (CPU offload)")
	fs.IntVar(&f.version, "fsdp_version", 0, "1 or 2 (goaccel's sharding follows FSDP2)")
	fs.StringVar(&f.forwardPrefetch, "fsdp_forward_prefetch", "", "true: start the next unit's all-gather while the current one computes its forward pass")
	fs.StringVar(&f.backwardPrefetch, "fsdp_backward_prefetch", "", "BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH (the default): when the next unit's all-gather of the backward pass starts")
}

// merge gives the workers' FSDP settings: the config file's fsdp_config (with
// distributed_type FSDP), then the flags.
func (f *fsdpFlags) merge(c Config) (workers.FSDPOptions, error) {
	fc := FSDPConfig{}
	if c.FSDPConfig != nil {
		fc = *c.FSDPConfig
	}
	o := workers.FSDPOptions{Use: f.use || c.DistributedType == "FSDP"}
	setBool := func(dst *bool, flagName, v string) error {
		if v == "" {
			return nil
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("--%s is %q; use true or false", flagName, v)
		}
		*dst = b
		return nil
	}
	reshard := fc.ReshardAfterForward
	if f.reshard != "" {
		var b bool
		if err := setBool(&b, "fsdp_reshard_after_forward", f.reshard); err != nil {
			return o, err
		}
		reshard = &b
	}
	if err := setBool(&fc.ActivationCheckpointing, "fsdp_activation_checkpointing", f.ckpt); err != nil {
		return o, err
	}
	if err := setBool(&fc.OffloadParams, "fsdp_offload_params", f.offload); err != nil {
		return o, err
	}
	if f.forwardPrefetch != "" {
		var b bool
		if err := setBool(&b, "fsdp_forward_prefetch", f.forwardPrefetch); err != nil {
			return o, err
		}
		fc.ForwardPrefetch = &b
	}
	for dst, v := range map[*string]string{&fc.ShardingStrategy: f.strategy, &fc.AutoWrapPolicy: f.wrapPolicy, &fc.TransformerLayerClsToWrap: f.clsToWrap,
		&fc.StateDictType: f.stateDict, &fc.BackwardPrefetch: f.backwardPrefetch} {
		if v != "" {
			*dst = v
		}
	}
	if f.minParams > 0 {
		fc.MinNumParams = f.minParams
	}
	if f.version != 0 {
		fc.Version = f.version
	}
	if fc.ShardingStrategy == "" && reshard != nil {
		fc.ShardingStrategy = "SHARD_GRAD_OP"
		if *reshard {
			fc.ShardingStrategy = "FULL_SHARD"
		}
	}
	if err := fc.validate(); err != nil {
		return o, err
	}
	if !o.Use {
		return o, nil
	}
	o.ShardingStrategy = strings.ToUpper(fc.ShardingStrategy)
	o.AutoWrapPolicy = strings.ToUpper(fc.AutoWrapPolicy)
	o.TransformerLayerClsToWrap = fc.TransformerLayerClsToWrap
	o.MinNumParams = fc.MinNumParams
	o.ActivationCheckpointing = fc.ActivationCheckpointing
	o.StateDictType = strings.ToUpper(fc.StateDictType)
	o.ForwardPrefetch = fc.ForwardPrefetch != nil && *fc.ForwardPrefetch
	o.OffloadParams = fc.OffloadParams
	o.BackwardPrefetch = strings.ToUpper(fc.BackwardPrefetch)
	return o, nil
}
