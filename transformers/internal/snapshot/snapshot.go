// Package snapshot reads and writes the weight files of a Hugging Face snapshot folder:
// model.safetensors, or shards model-0000i-of-0000n.safetensors listed by
// model.safetensors.index.json, through package nn's safetensors code.
//
// Files:
//   - snapshot.go: Weights, Read (one file or shards) and Write (sharded at a byte limit, with
//     the index transformers reads).
package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// The file names transformers reads and writes.
const (
	WeightsFile = "model.safetensors"
	IndexFile   = "model.safetensors.index.json"
)

// otherFormats are weight files of other frameworks, named when a folder has only those.
var otherFormats = []string{"pytorch_model.bin", "pytorch_model.bin.index.json", "tf_model.h5", "flax_model.msgpack", "model.ckpt.index"}

// Weights are a snapshot's tensors (on the CPU, in their stored types) and the file each came
// from (a name relative to the folder).
type Weights struct {
	Tensors map[string]*tensors.Tensor
	File    map[string]string
}

// index is model.safetensors.index.json.
type index struct {
	Metadata  map[string]any    `json:"metadata"`
	WeightMap map[string]string `json:"weight_map"`
}

// Read loads dir's weights: model.safetensors, or the shards its index lists. Errors name the
// file (and the tensor) at fault.
func Read(dir string) (*Weights, error) {
	single := filepath.Join(dir, WeightsFile)
	if _, err := os.Stat(single); err == nil {
		sd, err := nn.LoadSafetensors(single)
		if err != nil {
			return nil, err
		}
		w := &Weights{Tensors: sd, File: map[string]string{}}
		for k := range sd {
			w.File[k] = WeightsFile
		}
		return w, nil
	}
	idxPath := filepath.Join(dir, IndexFile)
	b, err := os.ReadFile(idxPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missingWeights(dir)
	}
	if err != nil {
		return nil, err
	}
	var idx index
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", idxPath, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, fmt.Errorf("%s: its weight_map lists no tensors", idxPath)
	}
	w := &Weights{Tensors: map[string]*tensors.Tensor{}, File: map[string]string{}}
	files := map[string]bool{}
	for _, f := range idx.WeightMap {
		files[f] = true
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if filepath.Base(f) != f {
			return nil, fmt.Errorf("%s: shard %q is not a file name inside the folder", idxPath, f)
		}
		sd, err := nn.LoadSafetensors(filepath.Join(dir, f))
		if err != nil {
			return nil, fmt.Errorf("shard listed in %s: %w", IndexFile, err)
		}
		for k, t := range sd {
			w.Tensors[k], w.File[k] = t, f
		}
	}
	for k, f := range idx.WeightMap {
		if _, ok := w.Tensors[k]; !ok {
			return nil, fmt.Errorf("%s lists tensor %q in %s, which does not hold it", IndexFile, k, filepath.Join(dir, f))
		}
	}
	return w, nil
}

func missingWeights(dir string) error {
	for _, f := range otherFormats {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return fmt.Errorf("%s has %s but no %s: goaccel reads safetensors weights only (in Python: model.save_pretrained(dir, safe_serialization=True) writes them)", dir, f, WeightsFile)
		}
	}
	return fmt.Errorf("no %s or %s in %s: %w", WeightsFile, IndexFile, dir, fs.ErrNotExist)
}

// shardName is the name of shard i (from 1) of n.
func shardName(i, n int) string { return fmt.Sprintf("model-%05d-of-%05d.safetensors", i, n) }

var shardPattern = regexp.MustCompile(`^model-\d{5}-of-\d{5}\.safetensors$`)

// Write saves the tensors of sd in order into dir: one model.safetensors when they fit in
// maxShardBytes (≤ 0: no limit), else shards of at most maxShardBytes each (a larger tensor gets
// a shard of its own) named model-0000i-of-0000n.safetensors, with model.safetensors.index.json
// mapping each tensor to its shard, as huggingface_hub's split_torch_state_dict_into_shards
// does. Weight files of an earlier save that this one does not write are removed, so the folder
// never mixes two saves. It returns the files written.
func Write(dir string, sd map[string]*tensors.Tensor, order []string, maxShardBytes int64, metadata map[string]string) ([]string, error) {
	var shards [][]string
	var size, total int64
	for _, k := range order {
		t := sd[k]
		n := int64(t.Numel()) * int64(dtypeSize(t.DType()))
		total += n
		if len(shards) == 0 || (maxShardBytes > 0 && size+n > maxShardBytes && size > 0) {
			shards = append(shards, nil)
			size = 0
		}
		shards[len(shards)-1] = append(shards[len(shards)-1], k)
		size += n
	}
	if len(shards) == 0 {
		shards = [][]string{nil}
	}
	var written []string
	idx := index{Metadata: map[string]any{"total_size": total}, WeightMap: map[string]string{}}
	for i, names := range shards {
		name := WeightsFile
		if len(shards) > 1 {
			name = shardName(i+1, len(shards))
		}
		part := make(map[string]*tensors.Tensor, len(names))
		for _, k := range names {
			part[k] = sd[k]
			idx.WeightMap[k] = name
		}
		if err := nn.SaveSafetensors(filepath.Join(dir, name), part, metadata); err != nil {
			return written, err
		}
		written = append(written, name)
	}
	if len(shards) > 1 {
		b, err := json.MarshalIndent(idx, "", "  ")
		if err != nil {
			return written, err
		}
		if err := os.WriteFile(filepath.Join(dir, IndexFile), append(b, '\n'), 0o644); err != nil {
			return written, err
		}
		written = append(written, IndexFile)
	}
	return written, removeStale(dir, written)
}

// removeStale deletes the weight files in dir (model.safetensors, its index, shards) that are
// not in keep.
func removeStale(dir string, keep []string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if slices.Contains(keep, n) || !(n == WeightsFile || n == IndexFile || shardPattern.MatchString(n)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}

// dtypeSize is the bytes of one element as safetensors stores it.
func dtypeSize(dt tensors.DType) int {
	switch dt {
	case tensors.Float64, tensors.Int64:
		return 8
	case tensors.BFloat16, tensors.Float16:
		return 2
	}
	return 4
}
