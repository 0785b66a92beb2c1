package accelerate

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// fsdpUnit is a set of parameters gathered and freed together: a transformer block, or the
// parameters no unit took (the root).
type fsdpUnit struct {
	name    string
	params  []*tensors.Tensor // the module's own, evicted while not in use
	shards  []*tensors.Tensor // this process's part of each, ⌈numel/G⌉ elements (the last one zero-padded)
	offsets []int             // where each shard starts in the unit's flat shard
	size    int               // the elements of the unit's shards together
	grads   *tensors.Tensor   // on a GPU, the memory of the shards' gradients (fsdp_device.go)

	resident bool  // the parameters hold their elements now
	gathered int64 // when they were last gathered (the oldest resident unit goes first)
	pending  int   // parameters whose gradient is not final yet in this backward pass
}

// sharder is a prepared model's fully sharded data parallelism: it cuts the parameters into
// units, keeps this process's shard of each parameter, gathers a unit when an op first uses one
// of its parameters inside a forward or backward pass (tensors.Evict's onUse), frees it after,
// and reduce-scatters the gradients, which the optimizer then finds on the shards.
type sharder struct {
	c        comm
	strategy ShardingStrategy
	sharded  bool // SaveState writes each process's shards (SHARDED_STATE_DICT)
	group    int  // processes that share one copy of the model (G): the world, or HybridShard's group
	grank    int  // this process's place in its group: its shard of every parameter
	node     int  // its group's index
	// shard is the group the parameters are gathered and the gradients reduce-scattered over
	// (c itself unless HybridShard); replica, under HybridShard, the processes holding the same
	// shard on every group, which all-reduce the reduce-scattered gradients.
	shard, replica comm
	// deviceCollectives: the gathers and reduce-scatters ran on device memory (fsdp_device.go).
	deviceCollectives bool
	dev               *deviceBuffers // the device memory those collectives run in, made at the first gather
	window            int            // units resident at once in a pass (0: no bound)

	units   []*fsdpUnit
	unitOf  map[*tensors.Tensor]*fsdpUnit
	shardOf map[*tensors.Tensor]*tensors.Tensor
	paramOf map[*tensors.Tensor]*tensors.Tensor // a shard's whole parameter
	index   map[*tensors.Tensor]int             // a parameter's place in its unit

	passes   int  // depth of the passes every process runs together (forward, backward, gathers)
	backward bool // inside Accelerator.Backward: the gradient hooks count
	armed    bool // this backward pass reduce-scatters the gradients (a sync step)
	clock    int64
	hooks    []*tensors.HookHandle

	// Prefetch: collectives run on their own goroutines, one after another (last is the
	// latest started); ahead is the next unit's all-gather started before an op asked for
	// it, predicted from the order of gathers of the last pass of the same kind (seen).
	forwardPrefetch  bool
	backwardPrefetch string
	last             *collective
	ahead            *prefetched
	scatters         []scatter
	kind             passKind
	order            []*fsdpUnit
	seen             [3][]*fsdpUnit
	prefetchHits     int // gathers that found their all-gather prefetched, for the tests

	// paramBF16 gathers the parameters in bfloat16 (mixed precision "bf16", PyTorch's
	// param_dtype): half the bytes of a float32 gather, from float32 shards, which the
	// optimizer steps; gradients are reduce-scattered in float32 (reduce_dtype).
	paramBF16     bool
	gatheredBytes int64 // bytes the all-gathers received, for the tests

	// offload keeps the shards, their gradients and the optimizer state in host memory
	// (CPUOffload): a unit comes to the device when it is gathered, its gradients go back to
	// the host shards, and the optimizer steps there.
	offload bool

	// peakWhole is the most bytes of whole parameters and whole gradients held at once (the
	// gathered units' and the gradients not reduce-scattered yet), for the tests of its bound.
	peakWhole int64
}

// newSharder shards m's parameters (already rank 0's on every process) on device d.
func newSharder(c comm, m nn.Module, p FullyShardedDataParallelPlugin, d tensors.Device) *sharder {
	s := &sharder{c: c, strategy: p.ShardingStrategy, sharded: p.StateDictType == ShardedStateDict, group: c.Size(), unitOf: map[*tensors.Tensor]*fsdpUnit{},
		forwardPrefetch: p.ForwardPrefetch, backwardPrefetch: p.BackwardPrefetch, offload: p.CPUOffload,
		shardOf: map[*tensors.Tensor]*tensors.Tensor{}, paramOf: map[*tensors.Tensor]*tensors.Tensor{}, index: map[*tensors.Tensor]int{}}
	if s.strategy == HybridShard {
		s.group = p.ShardGroupSize
		if s.group == 0 {
			s.group = c.LocalSize()
		}
		if c.Size()%s.group != 0 {
			panic(fmt.Sprintf("accelerate: FSDP HYBRID_SHARD: shard groups of %d processes do not divide the %d processes; set ShardGroupSize to a divisor", s.group, c.Size()))
		}
	}
	s.grank, s.node = c.Rank()%s.group, c.Rank()/s.group
	s.shard = c
	if s.strategy == HybridShard {
		var err error
		s.shard, err = c.Split(s.node, s.grank)
		must(err, "FSDP HYBRID_SHARD: make the shard group of each node")
		s.replica, err = c.Split(s.grank, s.node)
		must(err, "FSDP HYBRID_SHARD: make the replica groups across nodes")
	}
	if s.strategy != ShardGradOp {
		// The unit an op computes with and the one before it: an op that reads the
		// parameters of two units finds both there.
		s.window = 2
	}
	for _, u := range wrapUnits(m, p) {
		s.add(u, d)
	}
	for _, u := range s.units {
		for _, q := range u.params {
			s.hooks = append(s.hooks, q.OnGradReady(s.ready))
		}
	}
	return s
}

// add takes the unit's parameters: each moves to d, gives up its shard (on d, or in host
// memory under CPUOffload) and is evicted, one at a time, so a process never holds more than
// its shards and one whole parameter.
func (s *sharder) add(u *fsdpUnit, d tensors.Device) {
	for _, q := range u.params {
		if q.DType() != tensors.Float32 {
			panic(fmt.Sprintf("accelerate: Prepare: FSDP: parameter %v of unit %s has dtype %v; keep parameters float32 (mixed precision computes in lower precision under autocast)", q.Shape(), u.name, q.DType()))
		}
		q.MoveTo(d)
		n := q.Numel()
		per := (n + s.group - 1) / s.group
		vals := make([]float32, per)
		if lo := s.grank * per; lo < n {
			copy(vals, q.Float32s()[lo:min(lo+per, n)])
		}
		shard := tensors.New(vals, per) // in host memory under CPUOffload
		if !s.offload {
			shard = shard.To(d)
		}
		s.index[q] = len(u.shards)
		u.shards = append(u.shards, shard)
		u.offsets = append(u.offsets, u.size)
		u.size += per
		s.unitOf[q], s.shardOf[q], s.paramOf[shard] = u, shard, q
		q.Evict(s.onUse)
	}
	s.units = append(s.units, u)
}

// wrapUnits cuts m's parameters into units by the plugin's auto-wrap policy; the parameters
// no unit took form the root unit, first.
func wrapUnits(m nn.Module, p FullyShardedDataParallelPlugin) []*fsdpUnit {
	taken := map[*tensors.Tensor]bool{}
	var units []*fsdpUnit
	take := func(name string, ps []*tensors.Tensor) {
		u := &fsdpUnit{name: name}
		for _, q := range ps {
			if !taken[q] {
				taken[q] = true
				u.params = append(u.params, q)
			}
		}
		if len(u.params) > 0 {
			units = append(units, u)
		}
	}
	switch p.AutoWrapPolicy {
	case TransformerBasedWrap:
		classes := p.TransformerLayerClsToWrap
		named := len(classes) > 0
		if !named {
			if ns, ok := m.(noSplitModules); ok {
				classes = ns.NoSplitModules()
			} else {
				classes = defaultWrapClasses
			}
		}
		for _, sub := range nn.Modules(m)[1:] {
			if name := typeName(sub); matchesClass(name, classes) {
				take(fmt.Sprintf("%s %d", name, len(units)), sub.Parameters())
			}
		}
		if len(units) == 0 && !named {
			// Blocks that are no nn.Module of their own (a transformers family's, whose
			// forward pass takes more than a tensor) show in the parameters' names: the
			// entries of a list of layers, "transformer.h.3.attn.c_attn.weight".
			for _, blk := range layerBlocks(m.NamedParameters()) {
				take(blk.name, blk.params)
			}
		}
		if len(units) == 0 {
			panic(fmt.Sprintf("accelerate: Prepare: FSDP TRANSFORMER_BASED_WRAP found no module of type %s in the model; name its block type in TransformerLayerClsToWrap (fsdp_transformer_layer_cls_to_wrap) or use SIZE_BASED_WRAP", strings.Join(classes, ", ")))
		}
	case SizeBasedWrap:
		var cur []*tensors.Tensor
		n := 0
		for _, q := range m.Parameters() {
			cur = append(cur, q)
			if n += q.Numel(); n >= p.MinNumParams {
				take(fmt.Sprintf("parameters %d", len(units)), cur)
				cur, n = nil, 0
			}
		}
		take(fmt.Sprintf("parameters %d", len(units)), cur)
	}
	root := &fsdpUnit{name: "root"}
	for _, q := range m.Parameters() {
		if !taken[q] {
			taken[q] = true
			root.params = append(root.params, q)
		}
	}
	if len(root.params) > 0 {
		units = append([]*fsdpUnit{root}, units...)
	}
	return units
}

// layerBlock is the parameters of one entry of a list of layers, found by name.
type layerBlock struct {
	name   string
	params []*tensors.Tensor
}

// layerBlocks groups the parameters whose names have a numeric part ("h.3.", "layers.11.") by
// the name up to it, in order of first appearance.
func layerBlocks(named []nn.NamedParameter) []layerBlock {
	var out []layerBlock
	at := map[string]int{}
	for _, np := range named {
		parts := strings.Split(np.Name, ".")
		for i, part := range parts[:len(parts)-1] {
			if _, err := strconv.Atoi(part); err != nil || i == 0 {
				continue
			}
			key := strings.Join(parts[:i+1], ".")
			j, ok := at[key]
			if !ok {
				j = len(out)
				at[key] = j
				out = append(out, layerBlock{name: key})
			}
			out[j].params = append(out[j].params, np.Param)
			break
		}
	}
	return out
}

// defaultWrapClasses are the blocks of nn's GPT and of package transformers' families, under
// the names of transformers' _no_split_modules.
var defaultWrapClasses = []string{"TransformerBlock", "GPT2Block", "LlamaDecoderLayer", "BertLayer"}

// typeName is a module's Go type name with its package ("nn.TransformerBlock").
func typeName(m nn.Module) string {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.String()
}

// matchesClass reports whether the type name (package.Type) is one of classes, given with or
// without the package, or as transformers' Python class names it (package and type run
// together: "GPT2Block" is gpt2.Block).
func matchesClass(name string, classes []string) bool {
	short := name[strings.LastIndexByte(name, '.')+1:]
	joined := strings.ReplaceAll(name, ".", "")
	for _, c := range classes {
		c = strings.TrimPrefix(strings.TrimSpace(c), "*")
		if c == name || c == short || strings.EqualFold(c, joined) {
			return true
		}
	}
	return false
}

// shardOptimizers points every prepared optimizer at the shards of the FSDP models' parameters
// (Accelerate's switch of an optimizer to FSDP2's sharded parameters), so each process's
// optimizer state covers its shard only. Prepare calls it after each call, whatever the order
// of models and optimizers; a parameter already replaced stays as it is.
func (a *Accelerator) shardOptimizers() {
	for _, m := range a.models {
		if m.fsdp == nil {
			continue
		}
		for i, o := range a.optimizers {
			with := func(p *tensors.Tensor) *tensors.Tensor {
				if sh, ok := m.fsdp.shardOf[p]; ok {
					return sh
				}
				return p
			}
			r, ok := o.inner.(optim.ParamReplacer)
			if !ok {
				for _, p := range o.inner.Params() {
					if with(p) != p {
						panic(fmt.Sprintf("accelerate: Prepare: FSDP: optimizer %d (%T) cannot be pointed at the parameters' shards (it is no optim.ParamReplacer); use SGD, Adam, AdamW, RMSprop or Adadelta", i, o.inner))
					}
				}
				continue
			}
			if err := r.ReplaceParams(with); err != nil {
				panic(fmt.Sprintf("accelerate: Prepare: FSDP: optimizer %d: %v", i, err))
			}
		}
	}
}

// sharded reports whether a prepared model is sharded by FSDP: the optimizers' state is then
// each process's own, saved in a file per process.
func (a *Accelerator) sharded() bool {
	for _, m := range a.models {
		if m.fsdp != nil {
			return true
		}
	}
	return false
}

// suggestFSDP re-panics a device's out-of-memory panic of a data-parallel run with what FSDP
// would change (it wraps the device's error, which names the device and its limit, so
// errors.Is(err, tensors.ErrOutOfMemory) still holds); any other panic goes on as it was.
// Deferred by the steps that allocate the model's state: Prepare, Backward, the optimizer's Step.
func (a *Accelerator) suggestFSDP(what string) {
	r := recover()
	if r == nil {
		return
	}
	err, ok := r.(error)
	if !ok || !errors.Is(err, tensors.ErrOutOfMemory) || a.sharded() || len(a.models) == 0 {
		panic(r)
	}
	prefix := "accelerate: " + what + ": "
	if strings.HasPrefix(err.Error(), "accelerate: ") {
		prefix = ""
	}
	panic(fmt.Errorf("%s%w. Each of the %d processes holds the whole model, its gradients and the optimizer state "+
		"(%d bytes of parameters); fully sharded data parallelism keeps 1/%d of them on each: set Config.FSDP "+
		"(&accelerate.FullyShardedDataParallelPlugin{}) or launch with --use_fsdp", prefix, err, a.c.Size(), a.paramBytes(), a.c.Size()))
}

// paramBytes is the size of the prepared models' parameters.
func (a *Accelerator) paramBytes() int64 {
	var n int64
	for _, m := range a.models {
		for _, p := range m.inner.Parameters() {
			n += 4 * int64(p.Numel()) // float32, as Prepare requires
		}
	}
	return n
}
