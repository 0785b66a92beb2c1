package accelerate

import (
	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/tensors"
)

// SetSeed seeds the tensors default generator (weight init, Randn, loader seeds
// drawn at NewLoader) with seed, or with seed + rank when deviceSpecific, so
// every process starts from the same (or a distinct, reproducible) state.
func SetSeed(seed uint64, deviceSpecific bool) {
	if deviceSpecific {
		if cfg, err := dist.FromEnv(); err == nil {
			seed += uint64(cfg.Rank)
		}
	}
	tensors.ManualSeed(seed)
}
