package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// TestLaunchFSDPFromFlagsAndConfigFile reads Accelerate's FSDP flags and config file keys into
// the workers' FSDP settings: the flags win over the file, FSDP2's fsdp_reshard_after_forward
// stands for the strategy, and a value goaccel does not know is refused by name.
func TestLaunchFSDPFromFlagsAndConfigFile(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	dir := t.TempDir()
	write := func(name, yaml string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fsdp2 := write("fsdp2.yaml", `compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_activation_checkpointing: true
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_backward_prefetch: BACKWARD_PRE
  fsdp_forward_prefetch: true
  fsdp_cpu_ram_efficient_loading: true
  fsdp_offload_params: false
  fsdp_reshard_after_forward: false
  fsdp_state_dict_type: SHARDED_STATE_DICT
  fsdp_transformer_layer_cls_to_wrap: GPT2Block
  fsdp_version: 2
mixed_precision: 'no'
num_machines: 1
num_processes: 2
use_cpu: true
`)
	offload := write("offload.yaml", "distributed_type: FSDP\nfsdp_config:\n  fsdp_offload_params: true\nnum_processes: 2\n")
	for _, tc := range []struct {
		name string
		args []string
		want workers.FSDPOptions
		err  string
	}{
		{"no FSDP", []string{"--num_processes", "2", "--cpu"}, workers.FSDPOptions{}, ""},
		{"flags", []string{"--num_processes", "2", "--cpu", "--use_fsdp", "--fsdp_sharding_strategy", "hybrid_shard", "--fsdp_auto_wrap_policy", "SIZE_BASED_WRAP", "--fsdp_min_num_params", "1000"},
			workers.FSDPOptions{Use: true, ShardingStrategy: "HYBRID_SHARD", AutoWrapPolicy: "SIZE_BASED_WRAP", MinNumParams: 1000}, ""},
		{"config file (FSDP2 keys)", []string{"--config_file", fsdp2},
			workers.FSDPOptions{Use: true, ShardingStrategy: "SHARD_GRAD_OP", AutoWrapPolicy: "TRANSFORMER_BASED_WRAP", TransformerLayerClsToWrap: "GPT2Block", ActivationCheckpointing: true, StateDictType: "SHARDED_STATE_DICT",
				ForwardPrefetch: true, BackwardPrefetch: "BACKWARD_PRE"}, ""},
		{"flags over the config file", []string{"--config_file", fsdp2, "--fsdp_sharding_strategy", "FULL_SHARD", "--fsdp_activation_checkpointing", "false", "--fsdp_state_dict_type", "FULL_STATE_DICT",
			"--fsdp_forward_prefetch", "false", "--fsdp_backward_prefetch", "backward_post"},
			workers.FSDPOptions{Use: true, ShardingStrategy: "FULL_SHARD", AutoWrapPolicy: "TRANSFORMER_BASED_WRAP", TransformerLayerClsToWrap: "GPT2Block", StateDictType: "FULL_STATE_DICT",
				BackwardPrefetch: "BACKWARD_POST"}, ""},
		{"unknown backward prefetch", []string{"--use_fsdp", "--fsdp_backward_prefetch", "EARLY"}, workers.FSDPOptions{}, "fsdp_backward_prefetch"},
		{"bad forward prefetch", []string{"--use_fsdp", "--fsdp_forward_prefetch", "soon"}, workers.FSDPOptions{}, "fsdp_forward_prefetch"},
		{"unknown strategy", []string{"--use_fsdp", "--fsdp_sharding_strategy", "ZERO_4"}, workers.FSDPOptions{}, "fsdp_sharding_strategy"},
		{"unknown state dict type", []string{"--use_fsdp", "--fsdp_state_dict_type", "LOCAL_STATE_DICT"}, workers.FSDPOptions{}, "fsdp_state_dict_type"},
		{"offload flag", []string{"--use_fsdp", "--fsdp_offload_params", "true"}, workers.FSDPOptions{Use: true, OffloadParams: true}, ""},
		{"offload in the config file", []string{"--config_file", offload}, workers.FSDPOptions{Use: true, OffloadParams: true}, ""},
		{"bad offload flag", []string{"--use_fsdp", "--fsdp_offload_params", "maybe"}, workers.FSDPOptions{}, "fsdp_offload_params"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("launch", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var f Flags
			f.Register(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			opts, err := f.Options()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Options() = %v; want an error naming %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if opts.FSDP != tc.want {
				t.Errorf("FSDP options = %+v; want %+v", opts.FSDP, tc.want)
			}
		})
	}
}
