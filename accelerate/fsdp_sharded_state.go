package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// SHARDED_STATE_DICT: SaveState has every process write its own shards of a model instead of
// gathering the whole model on rank 0 (Accelerate's fsdp_state_dict_type), into
// model_fsdp/rank<r>.safetensors (model_<i>_fsdp for the i-th model) with an index.json that
// gives the shard group's size and each parameter's shape. LoadState reads every file of the
// folder, puts each parameter back together and cuts it again for the processes that load it:
// a checkpoint saved by N processes loads on any number, sharded or not.

// shardedIndex is model_fsdp/index.json.
type shardedIndex struct {
	ShardGroup int              `json:"shard_group"` // the processes whose files together hold every shard
	Shapes     map[string][]int `json:"shapes"`      // each sharded parameter's shape
}

// shardedStateDir is model i's folder of shards in a checkpoint.
func shardedStateDir(dir string, i int) string {
	return filepath.Join(dir, indexed("model", i, "_fsdp"))
}

// saveSharded writes this process's shards of the model s shards (and, on rank 0, its buffers
// and the index). Every process calls it.
func (a *Accelerator) saveSharded(dir string, i int, s *sharder, m nn.Module) error {
	out := shardedStateDir(dir, i)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	sd := map[string]*tensors.Tensor{}
	idx := shardedIndex{ShardGroup: s.group, Shapes: map[string][]int{}}
	seen := map[*tensors.Tensor]bool{}
	for _, np := range m.NamedParameters() {
		sh, ok := s.shardOf[np.Param]
		if !ok || seen[np.Param] {
			continue
		}
		seen[np.Param] = true
		sd[np.Name], idx.Shapes[np.Name] = sh, np.Param.Shape()
	}
	if a.IsMainProcess() {
		for _, b := range nn.NamedBuffersOf(m) {
			sd[b.Name] = b.Param
		}
		raw, err := json.MarshalIndent(idx, "", "  ")
		if err != nil {
			return err
		}
		if err := a.writeFile(out, "index.json", raw); err != nil {
			return err
		}
	}
	if a.c.Rank() >= s.group {
		return nil // HYBRID_SHARD: the first group's files hold every shard
	}
	return nn.SaveSafetensors(filepath.Join(out, "rank"+strconv.Itoa(a.c.Rank())+".safetensors"), sd, map[string]string{"format": "pt"})
}

// readShardedState puts model i's whole state dict back together from a checkpoint's shards;
// ok is false when the checkpoint has no shards of it.
func readShardedState(dir string, i int) (sd map[string]*tensors.Tensor, ok bool, err error) {
	in := shardedStateDir(dir, i)
	raw, err := os.ReadFile(filepath.Join(in, "index.json"))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	var idx shardedIndex
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, true, fmt.Errorf("%s: %w", filepath.Join(in, "index.json"), err)
	}
	parts := make([]map[string]*tensors.Tensor, idx.ShardGroup)
	for r := range parts {
		if parts[r], err = nn.LoadSafetensors(filepath.Join(in, "rank"+strconv.Itoa(r)+".safetensors")); err != nil {
			return nil, true, fmt.Errorf("the shards of %d processes were saved: %w", idx.ShardGroup, err)
		}
	}
	sd = map[string]*tensors.Tensor{}
	for name, t := range parts[0] {
		shape, sharded := idx.Shapes[name]
		if !sharded {
			sd[name] = t // a buffer, whole
			continue
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		var whole []float32
		for r, p := range parts {
			sh, ok := p[name]
			if !ok {
				return nil, true, fmt.Errorf("%s: rank %d's file lacks %s", in, r, name)
			}
			whole = append(whole, sh.Float32s()...)
		}
		if len(whole) < n {
			return nil, true, fmt.Errorf("%s: the shards of %s hold %d elements; its shape %v needs %d", in, name, len(whole), shape, n)
		}
		sd[name] = tensors.New(whole[:n], shape...)
	}
	return sd, true, nil
}
