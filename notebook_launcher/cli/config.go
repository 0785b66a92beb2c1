package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"
)

// Config is the launch configuration, with the keys of Accelerate's default_config.yaml.
type Config struct {
	ComputeEnvironment   string `yaml:"compute_environment"`
	Debug                bool   `yaml:"debug"`
	DistributedType      string `yaml:"distributed_type"`
	DowncastBF16         string `yaml:"downcast_bf16"`
	GPUIDs               string `yaml:"gpu_ids"`
	MachineRank          int    `yaml:"machine_rank"`
	MainProcessIP        string `yaml:"main_process_ip,omitempty"`
	MainProcessPort      int    `yaml:"main_process_port,omitempty"`
	MainTrainingFunction string `yaml:"main_training_function"`
	MixedPrecision       string `yaml:"mixed_precision"`
	NumMachines          int    `yaml:"num_machines"`
	NumProcesses         int    `yaml:"num_processes"`
	RdzvBackend          string `yaml:"rdzv_backend"`
	SameNetwork          bool   `yaml:"same_network"`
	UseCPU               bool   `yaml:"use_cpu"`
	MaxRestarts          int    `yaml:"max_restarts,omitempty"`
	// FSDPConfig is read with distributed_type FSDP.
	FSDPConfig *FSDPConfig `yaml:"fsdp_config,omitempty"`
}

// DefaultConfigFile is where the configuration lives unless --config_file says otherwise.
func DefaultConfigFile() string {
	home := os.Getenv("HF_HOME")
	if home == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			if h, err := os.UserHomeDir(); err == nil {
				cache = filepath.Join(h, ".cache")
			}
		}
		home = filepath.Join(cache, "huggingface")
	}
	return filepath.Join(home, "accelerate", "default_config.yaml")
}

// BasicConfig is what `goaccel config default` writes for this machine: one
// process per GPU when there are several, otherwise one CPU process.
func BasicConfig(mixedPrecision string, gpus int) Config {
	c := Config{
		ComputeEnvironment: "LOCAL_MACHINE", DistributedType: "NO", DowncastBF16: "no",
		GPUIDs: "all", MainTrainingFunction: "main", MixedPrecision: mixedPrecision,
		NumMachines: 1, NumProcesses: 1, RdzvBackend: "static", SameNetwork: true,
	}
	switch {
	case gpus > 1:
		c.DistributedType, c.NumProcesses = "MULTI_GPU", gpus
	case gpus == 0:
		c.UseCPU = true
	}
	return c
}

// Validate reports the first field with a value goaccel cannot use.
func (c Config) Validate() error {
	switch c.MixedPrecision {
	case "", "no", "fp16", "bf16":
	default:
		return fmt.Errorf("mixed_precision is %q; use no, fp16 or bf16", c.MixedPrecision)
	}
	switch c.DistributedType {
	case "", "NO", "MULTI_CPU", "MULTI_GPU", "FSDP":
	default:
		return fmt.Errorf("distributed_type is %q; use NO, MULTI_CPU, MULTI_GPU or FSDP", c.DistributedType)
	}
	if err := c.FSDPConfig.validate(); err != nil {
		return err
	}
	if c.NumProcesses < 0 || c.NumMachines < 0 {
		return fmt.Errorf("num_processes (%d) and num_machines (%d) must not be negative", c.NumProcesses, c.NumMachines)
	}
	if c.NumMachines > 1 && (c.MachineRank < 0 || c.MachineRank >= c.NumMachines) {
		return fmt.Errorf("machine_rank is %d; it must be in [0, %d)", c.MachineRank, c.NumMachines)
	}
	return nil
}

// LoadConfig reads path; a missing file gives the zero Config and ok=false.
func LoadConfig(path string) (c Config, ok bool, err error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Config{}, false, nil
	}
	if err != nil {
		return Config{}, false, fmt.Errorf("read config %s: %w", path, err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return Config{}, false, fmt.Errorf("parse config %s: %w", path, err)
	}
	if err := c.Validate(); err != nil {
		return Config{}, false, fmt.Errorf("config %s: %w", path, err)
	}
	return c, true, nil
}

// SaveConfig writes c to path, creating its folder.
func SaveConfig(path string, c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create config folder: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write config %s: %w", path, err)
	}
	return nil
}
