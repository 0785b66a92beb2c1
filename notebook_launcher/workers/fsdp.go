package workers

import "strconv"

// FSDPOptions are Accelerate's FSDP launch settings (`--use_fsdp`, `--fsdp_*`, a config file's
// fsdp_config), which package accelerate reads from the environment into
// Config.FSDP. Empty fields leave the worker's own setting.
type FSDPOptions struct {
	Use                       bool   // ACCELERATE_USE_FSDP
	ShardingStrategy          string // FSDP_SHARDING_STRATEGY: FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD (or 1 to 4)
	AutoWrapPolicy            string // FSDP_AUTO_WRAP_POLICY: TRANSFORMER_BASED_WRAP, SIZE_BASED_WRAP, NO_WRAP
	TransformerLayerClsToWrap string // FSDP_TRANSFORMER_CLS_TO_WRAP: comma-separated block types
	MinNumParams              int    // FSDP_MIN_NUM_PARAMS (0: the worker's default)
	ActivationCheckpointing   bool   // FSDP_ACTIVATION_CHECKPOINTING
	StateDictType             string // FSDP_STATE_DICT_TYPE: FULL_STATE_DICT or SHARDED_STATE_DICT
	ForwardPrefetch           bool   // FSDP_FORWARD_PREFETCH
	BackwardPrefetch          string // FSDP_BACKWARD_PREFETCH: BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH
	OffloadParams             bool   // FSDP_OFFLOAD_PARAMS
}

// env is the workers' environment for o (nothing unless Use).
func (o FSDPOptions) env() []string {
	if !o.Use {
		return nil
	}
	e := []string{"ACCELERATE_USE_FSDP=true"}
	add := func(k, v string) {
		if v != "" {
			e = append(e, k+"="+v)
		}
	}
	add("FSDP_SHARDING_STRATEGY", o.ShardingStrategy)
	add("FSDP_AUTO_WRAP_POLICY", o.AutoWrapPolicy)
	add("FSDP_TRANSFORMER_CLS_TO_WRAP", o.TransformerLayerClsToWrap)
	add("FSDP_STATE_DICT_TYPE", o.StateDictType)
	add("FSDP_BACKWARD_PREFETCH", o.BackwardPrefetch)
	if o.ForwardPrefetch {
		add("FSDP_FORWARD_PREFETCH", "true")
	}
	if o.OffloadParams {
		add("FSDP_OFFLOAD_PARAMS", "true")
	}
	if o.MinNumParams > 0 {
		add("FSDP_MIN_NUM_PARAMS", strconv.Itoa(o.MinNumParams))
	}
	if o.ActivationCheckpointing {
		add("FSDP_ACTIVATION_CHECKPOINTING", "true")
	}
	return e
}
