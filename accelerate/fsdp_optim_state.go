package accelerate

import (
	"encoding/json"
	"fmt"
)

// An FSDP optimizer's state is per shard; SaveState writes it whole, in the layout of the same
// optimizer over the whole parameters (what DDP writes to optimizer.bin), so that a checkpoint
// loads on any number of processes, sharded or not. The state dict is package optim's JSON
// (PyTorch's layout): "state" maps each parameter's index to its step count and its buffers,
// tensors {"dtype", "shape", "data"} of float32 values; "goaccel"."shapes" lists each
// parameter's shape.

// optimState is the part of an optimizer's JSON state dict that consolidation rewrites; the
// rest is kept as it was.
type optimState struct {
	State map[string]map[string]json.RawMessage `json:"state"`
	Extra struct {
		Shapes [][]int `json:"shapes"`
	} `json:"goaccel"`
}

// stateTensor is a tensor of a state dict.
type stateTensor struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  []byte `json:"data"`
}

// fullOptimizerState returns, on every process, optimizer o's state over the whole parameters:
// each process's shards of every buffer, gathered (from the first shard group under
// HYBRID_SHARD, whose groups hold the same), cut to the parameter's size and shape.
func (a *Accelerator) fullOptimizerState(o *optimizer) ([]byte, error) {
	s := a.sharderOf(o.inner.Params())
	mine, err := o.inner.StateDict()
	if err != nil || s == nil {
		return mine, err
	}
	all, err := a.c.AllGatherBytes(mine)
	if err != nil {
		return nil, fmt.Errorf("gather the optimizer's shards: %w", err)
	}
	var st optimState
	if err := json.Unmarshal(all[0], &st); err != nil {
		return nil, err
	}
	shards := make([]optimState, s.group)
	for r := range shards {
		if err := json.Unmarshal(all[r], &shards[r]); err != nil {
			return nil, err
		}
	}
	params := o.inner.Params()
	for i, sh := range params {
		p, ok := s.paramOf[sh]
		if !ok {
			continue
		}
		if i < len(st.Extra.Shapes) {
			st.Extra.Shapes[i] = p.Shape()
		}
		key := fmt.Sprint(i)
		for field := range st.State[key] {
			var whole []byte
			var t stateTensor
			for r := range shards {
				if json.Unmarshal(shards[r].State[key][field], &t) != nil || t.Shape == nil {
					whole = nil
					break
				}
				whole = append(whole, t.Data...)
			}
			if whole == nil {
				continue // a number (the step count)
			}
			t.Data, t.Shape = whole[:4*p.Numel()], p.Shape()
			b, err := json.Marshal(t)
			if err != nil {
				return nil, err
			}
			st.State[key][field] = b
		}
	}
	return rewrite(mine, st)
}

// shardOptimizerState cuts o's state over the whole parameters (fullOptimizerState's, or what
// DDP saved) to this process's shards.
func (a *Accelerator) shardOptimizerState(o *optimizer, full []byte) ([]byte, error) {
	s := a.sharderOf(o.inner.Params())
	if s == nil {
		return full, nil
	}
	var st optimState
	if err := json.Unmarshal(full, &st); err != nil {
		return nil, err
	}
	for i, sh := range o.inner.Params() {
		if _, ok := s.paramOf[sh]; !ok {
			continue
		}
		per := sh.Numel()
		if i < len(st.Extra.Shapes) {
			st.Extra.Shapes[i] = sh.Shape()
		}
		key := fmt.Sprint(i)
		for field, raw := range st.State[key] {
			var t stateTensor
			if json.Unmarshal(raw, &t) != nil || t.Shape == nil {
				continue
			}
			padded := make([]byte, 4*per*s.group)
			copy(padded, t.Data)
			t.Data, t.Shape = padded[4*per*s.grank:4*per*(s.grank+1)], sh.Shape()
			b, err := json.Marshal(t)
			if err != nil {
				return nil, err
			}
			st.State[key][field] = b
		}
	}
	return rewrite(full, st)
}

// rewrite puts st's state and shapes into the state dict b, keeping its other keys.
func rewrite(b []byte, st optimState) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	state, err := json.Marshal(st.State)
	if err != nil {
		return nil, err
	}
	doc["state"] = state
	if raw, ok := doc["goaccel"]; ok {
		var extra map[string]json.RawMessage
		if err := json.Unmarshal(raw, &extra); err != nil {
			return nil, err
		}
		if extra["shapes"], err = json.Marshal(st.Extra.Shapes); err != nil {
			return nil, err
		}
		if doc["goaccel"], err = json.Marshal(extra); err != nil {
			return nil, err
		}
	}
	return json.Marshal(doc)
}

// shardedState loads a state over the whole parameters into a prepared optimizer, cut to its
// shards under FSDP (LoadState).
type shardedState struct {
	o *optimizer
	a *Accelerator
}

func (s shardedState) StateDict() ([]byte, error) { return s.o.inner.StateDict() }

func (s shardedState) LoadStateDict(b []byte) error {
	mine, err := s.a.shardOptimizerState(s.o, b)
	if err != nil {
		return err
	}
	return s.o.inner.LoadStateDict(mine)
}
