package accelerate

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tensors/backend/sim"
)

// fsdpGPT is the small transformer the FSDP tests train: 4 blocks of 12.6k parameters each and
// a root unit (embeddings, final norm) of 1.3k.
var fsdpGPT = nn.GPTConfig{VocabSize: 16, BlockSize: 8, Layers: 4, Heads: 2, Embed: 32, Bias: true}

// fsdpCase is one training of the FSDP tests.
type fsdpCase struct {
	Name     string
	Strategy ShardingStrategy // "" trains with DDP
	Group    int              // HYBRID_SHARD's shard group
	GA       int
	Clip     bool
	Ckpt     bool   // the plugin's ActivationCheckpointing
	Forward  bool   // ForwardPrefetch
	Backward string // BackwardPrefetch
	MP       string // Config.MixedPrecision
	Offload  bool   // CPUOffload
}

// fsdpRun is what a process reports of one training: the final parameters and, from its
// simulated device, the bytes of the state kept between steps and the peak of a step.
type fsdpRun struct {
	Params      map[string][]float32
	StateBytes  int64 // live after the last optimizer step: parameters, gradients, optimizer state
	PeakBytes   int64 // the most live during the steps, above what lived before Prepare
	LargestUnit int64 // bytes of the largest unit's parameters
	BucketBytes int64 // DDP's gradient bucket buffers on the device
	PeakWhole   int64 // FSDP's most bytes of whole parameters and gradients at once
	ParamBytes  int64
	NumParams   int       // the model's parameter tensors
	AllLosses   []float64 // every process's last loss, from GatherForMetrics
	Steps       int
	Traffic     map[string]int64 // HYBRID_SHARD's collectives by group (fsdp_hybrid_test.go)
	// DeviceCollectives: the gathers and reduce-scatters ran on device memory (NCCL).
	DeviceCollectives bool
	ReplicaTransport  string    // HYBRID_SHARD's replica group's
	Prefetched        int       // gathers that found their all-gather prefetched
	Gathered          int64     // bytes the all-gathers received
	Losses            []float64 // this process's loss at each step
	ShardTypes        []string  // the dtypes of the parameters' shards after training
}

// trainFSDP trains fsdpGPT for 20 steps on this process's batches with AdamW.
func trainFSDP(c comm, tc fsdpCase) fsdpRun {
	cfg := Config{GradientAccumulationSteps: tc.GA, MixedPrecision: tc.MP}
	if tc.Strategy != "" {
		cfg.FSDP = &FullyShardedDataParallelPlugin{ShardingStrategy: tc.Strategy, ShardGroupSize: tc.Group, ActivationCheckpointing: tc.Ckpt,
			ForwardPrefetch: tc.Forward, BackwardPrefetch: tc.Backward, CPUOffload: tc.Offload}
	}
	acc := newWithComm(withCfg(cfg), c)
	dev := memoryOf(acc.Device())
	base := dev.settled()
	dev.resetPeak()
	tensors.ManualSeed(5)
	var model nn.Module = nn.NewGPT(fsdpGPT)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2, WeightDecay: 0.01})
	acc.Prepare(&model, &opt)
	traffic := watchTraffic(model)
	g := tensors.NewGenerator(uint64(100 + c.Rank()))
	run := fsdpRun{Steps: 20}
	for _, p := range model.Parameters() {
		run.ParamBytes += 4 * int64(p.Numel())
		run.NumParams++
	}
	if w, ok := prepared(model); ok && w.red != nil {
		for _, b := range w.red.buckets {
			run.BucketBytes += 4 * int64(b.size) // made on the first backward pass
		}
	}
	if w, ok := prepared(model); ok && w.fsdp != nil {
		for _, u := range w.fsdp.units {
			n := int64(0)
			for _, p := range u.params {
				n += 4 * int64(p.Numel())
			}
			run.LargestUnit = max(run.LargestUnit, n)
		}
	}
	for step := 0; step < run.Steps; step++ {
		idx := g.RandInt(0, int64(fsdpGPT.VocabSize), 4, fsdpGPT.BlockSize).To(acc.Device())
		tgt := g.RandInt(0, int64(fsdpGPT.VocabSize), 4*fsdpGPT.BlockSize).To(acc.Device())
		acc.Accumulate(model, func() {
			logits := model.Forward(idx)
			loss := tensors.CrossEntropy(logits.Reshape(-1, fsdpGPT.VocabSize), tgt)
			run.Losses = append(run.Losses, loss.Item())
			if step == run.Steps-1 {
				// Metrics gathered between the forward and the backward pass, as an
				// evaluation loop gathers predictions.
				run.AllLosses = acc.GatherForMetrics(loss.Detach().Reshape(1)).Float64s()
			}
			acc.Backward(loss)
			if tc.Clip {
				acc.ClipGradNorm(model.Parameters(), 0.5)
			}
			opt.Step()
			if step == run.Steps-1 {
				run.StateBytes = dev.settled() - base
			}
			opt.ZeroGrad()
		})
	}
	run.PeakBytes = dev.peak() - base
	if w, ok := prepared(model); ok && w.fsdp != nil {
		run.PeakWhole = w.fsdp.peakWhole
		run.DeviceCollectives = w.fsdp.deviceCollectives
		run.ReplicaTransport = transportOf(w.fsdp.replica)
		run.Prefetched = w.fsdp.prefetchHits
		run.Gathered = w.fsdp.gatheredBytes
		types := map[string]bool{}
		for _, u := range w.fsdp.units {
			for _, sh := range u.shards {
				types[sh.DType().String()] = true
			}
		}
		for k := range types {
			run.ShardTypes = append(run.ShardTypes, k)
		}
	}
	run.Traffic = traffic.report()
	run.Params = map[string][]float32{}
	for k, t := range acc.GetStateDict(model) {
		run.Params[k] = t.Float32s()
	}
	acc.FreeMemory()
	return run
}

// fsdpCases are the trainings of TestFSDPMatchesDDP on n processes.
func fsdpCases(n int) []fsdpCase {
	return []fsdpCase{
		{Name: "ddp"},
		{Name: "full-shard", Strategy: FullShard},
		{Name: "shard-grad-op", Strategy: ShardGradOp},
		{Name: "hybrid-shard", Strategy: HybridShard, Group: n / 2},
		{Name: "full-shard-activation-checkpointing", Strategy: FullShard, Ckpt: true},
		{Name: "ddp-accumulate2-clip", GA: 2, Clip: true},
		{Name: "full-shard-accumulate2-clip", Strategy: FullShard, GA: 2, Clip: true},
		{Name: "full-shard-prefetch", Strategy: FullShard, Forward: true, Backward: BackwardPre},
		{Name: "full-shard-backward-post", Strategy: FullShard, Backward: BackwardPost},
		{Name: "shard-grad-op-prefetch", Strategy: ShardGradOp, Forward: true, Backward: BackwardPre},
		{Name: "full-shard-activation-checkpointing-prefetch", Strategy: FullShard, Ckpt: true, Forward: true, Backward: BackwardPre},
		{Name: "full-shard-accumulate2-clip-prefetch", Strategy: FullShard, GA: 2, Clip: true, Forward: true, Backward: BackwardPre},
		{Name: "full-shard-offload", Strategy: FullShard, Offload: true},
		{Name: "full-shard-offload-accumulate2-clip-prefetch", Strategy: FullShard, Offload: true, GA: 2, Clip: true, Forward: true, Backward: BackwardPre},
		{Name: "ddp-bf16", MP: "bf16"},
		{Name: "full-shard-bf16", Strategy: FullShard, MP: "bf16"},
		{Name: "full-shard-bf16-prefetch", Strategy: FullShard, MP: "bf16", Forward: true, Backward: BackwardPre},
	}
}

// TestFSDPMatchesDDP trains a 4-block GPT for 20 steps with DDP and with each sharding
// strategy, on 2 and on 4 processes each on its own simulated device (over shared memory, and
// on 2 over TCP), and checks that every
// strategy ends with DDP's parameters and keeps, per process, 1/N of DDP's state. The rows
// with prefetch end with the parameters of the same run without it to the bit, holding at
// most one unit more; the bf16 rows gather half the bytes and stay near DDP under bf16
// autocast (checkBF16Gathers); the CPU offload rows keep nothing on the device between steps
// (checkOffload).
//
// Equality: gradients are averaged by the same ring (reduce-scatter is the first half of the
// ring all-reduce), so what differs is only the order of the sums of each element's N values,
// which follows the chunk boundaries of the ring: on 2 processes a+b is the same in every
// order, and the parameters come out bit-equal; on 4, and with ClipGradNorm (whose norm FSDP
// sums shard by shard), they agree to float32 rounding (1e-5 after 20 AdamW steps).
func TestFSDPMatchesDDP(t *testing.T) {
	t.Setenv(EnvDevice, "sim")
	for _, tc := range []struct {
		n         int
		transport string
	}{{2, "shm"}, {4, "shm"}, {2, "tcp"}} {
		n := tc.n
		t.Run(fmt.Sprintf("%d-processes-%s", n, tc.transport), func(t *testing.T) {
			t.Setenv(dist.EnvTransport, tc.transport)
			dir := sharedDir(t)
			cases := fsdpCases(n)
			launch(t, n, func() {
				c := group()
				var runs []fsdpRun
				for _, tc := range cases {
					runs = append(runs, trainFSDP(c, tc))
				}
				writeJSON(resultPath(dir, fmt.Sprintf("fsdp%d-rank%d", n, c.Rank())), runs)
			})
			var runs [][]fsdpRun
			for r := 0; r < n; r++ {
				var rr []fsdpRun
				readJSON(t, resultPath(dir, fmt.Sprintf("fsdp%d-rank%d", n, r)), &rr)
				runs = append(runs, rr)
			}
			checkFSDPRuns(t, n, cases, runs)
		})
	}
}

func checkFSDPRuns(t *testing.T, n int, cases []fsdpCase, runs [][]fsdpRun) {
	ddp := map[fsdpCase]fsdpRun{} // DDP's run of each loop
	for i, tc := range cases {
		if tc.Strategy == "" {
			ddp[fsdpCase{GA: tc.GA, Clip: tc.Clip, MP: tc.MP}] = runs[0][i]
		}
	}
	for i, tc := range cases {
		got := runs[0][i]
		want := ddp[fsdpCase{GA: tc.GA, Clip: tc.Clip, MP: tc.MP}]
		// DDP's parameters, gradients and optimizer state, without its bucket buffers.
		ddpState := want.StateBytes - want.BucketBytes
		diff, bitEqual := paramDiff(want.Params, got.Params)
		t.Logf("%d processes, %s: %d gathers prefetched; max |Δ| vs DDP %.3g (bit-equal %v); per process: state %d bytes (DDP %d + buckets %d, 1/N %d), peak %d (DDP %d), largest unit %d",
			n, tc.Name, got.Prefetched, diff, bitEqual, got.StateBytes, ddpState, want.BucketBytes, ddpState/int64(n), got.PeakBytes, want.PeakBytes, got.LargestUnit)
		tol := 0.0
		if n > 2 || tc.Clip {
			tol = 1e-4
		}
		if tc.MP == "bf16" && tc.Strategy != "" {
			checkBF16Gathers(t, n, cases, runs, i)
			tol = bf16ParamTolerance
		}
		if diff > tol {
			t.Errorf("%s: parameters differ from DDP's by %g after 20 steps (tolerance %g)", tc.Name, diff, tol)
		}

		for r := 1; r < n; r++ {
			if d, _ := paramDiff(got.Params, runs[r][i].Params); d != 0 {
				t.Errorf("%s: rank %d's gathered model differs from rank 0's by %g", tc.Name, r, d)
			}
		}
		checkGatheredLosses(t, tc.Name, runs, i)
		if tc.Strategy == "" {
			continue
		}
		if tc.Forward || tc.Backward != "" {
			// Prefetch changes when a unit's all-gather runs, not what it brings: the
			// parameters equal, to the bit, those of the same training without it.
			for j, o := range cases {
				if o.Strategy == tc.Strategy && o.GA == tc.GA && o.Clip == tc.Clip && o.Ckpt == tc.Ckpt && o.MP == tc.MP && !o.Forward && o.Backward == "" {
					if d, same := paramDiff(runs[0][j].Params, got.Params); !same {
						t.Errorf("%s: parameters differ from %s's by %g; want them equal to the bit", tc.Name, o.Name, d)
					}
				}
			}
			if got.Prefetched == 0 {
				t.Errorf("%s: no unit was found prefetched", tc.Name)
			}
		}
		if tc.Ckpt {
			// The blocks' activations are recomputed in the backward pass: the step's peak
			// is below full sharding's without it.
			for j, o := range cases {
				if o.Strategy == FullShard && !o.Ckpt && o.GA == tc.GA && !o.Clip && o.MP == tc.MP && !o.Offload && got.PeakBytes >= runs[0][j].PeakBytes {
					t.Errorf("%s: peak %d bytes; want less than %s's %d", tc.Name, got.PeakBytes, o.Name, runs[0][j].PeakBytes)
				}
			}
		}
		if tc.Offload {
			checkOffload(t, cases, runs, i)
			continue
		}
		// Between steps a process keeps its shards of the parameters, their gradients and the
		// two AdamW moments: 1/G of DDP's, G the processes sharing one copy.
		shardOf := int64(n)
		if tc.Strategy == HybridShard {
			shardOf = int64(tc.Group)
			for r := 0; r < n; r++ {
				checkHybridTraffic(t, r, n, tc.Group, got.Steps, runs[r][i].Traffic)
			}
		}
		for r := 0; r < n; r++ {
			st := runs[r][i].StateBytes
			if share := ddpState / shardOf; math.Abs(float64(st-share)) > 0.1*float64(share) {
				t.Errorf("%s, rank %d: %d bytes of state between steps; want 1/%d of DDP's %d (±10%%)", tc.Name, r, st, shardOf, ddpState)
			}
		}
		// During a step a process holds, beyond its shards, the whole parameters of the
		// gathered units and the whole gradients not reduce-scattered yet: under FULL_SHARD
		// and HYBRID_SHARD one unit's parameters and gradients (two units' parameters in the
		// forward pass); SHARD_GRAD_OP keeps every parameter from the forward pass to the
		// end of the backward pass; with accumulation the whole gradients add up until the
		// sync step, as FSDP's no_sync keeps them.
		bound := 2 * got.LargestUnit
		if tc.Strategy == ShardGradOp {
			bound = got.ParamBytes + got.LargestUnit
		}
		if tc.GA > 1 {
			bound = got.ParamBytes + 2*got.LargestUnit
		}
		if tc.Forward || tc.Backward != "" {
			bound += got.LargestUnit // the one unit whose all-gather runs ahead
		}
		if float64(got.PeakWhole) > 1.1*float64(bound) {
			t.Errorf("%s: %d bytes of whole parameters and gradients at once; want at most %d (+10%%)", tc.Name, got.PeakWhole, bound)
		}
		t.Logf("%d processes, %s: parameters, gradients and optimizer state resident at the peak: %d shards + %d whole = %d bytes; DDP/%d + one unit's parameters and gradients = %d",
			n, tc.Name, got.StateBytes, got.PeakWhole, got.StateBytes+got.PeakWhole, shardOf, ddpState/shardOf+2*got.LargestUnit)
	}
}

// checkOffload checks a CPUOffload run (case i) against the same run without offload: the
// same parameters to the bit; between steps nothing on the device (shards, gradients and
// optimizer state are in host memory); at the peak, what the run without offload holds beyond
// its shards: the gathered units, the whole gradients and the activations. That run's peak
// moves between runs with accumulation and clipping (by up to 13% seen: dropped tensors go
// back to the device's pool at a collection, whose moment varies), hence 25% of slack.
func checkOffload(t *testing.T, cases []fsdpCase, runs [][]fsdpRun, i int) {
	t.Helper()
	tc := cases[i]
	for j, o := range cases {
		if o.Offload || o.Strategy != tc.Strategy || o.GA != tc.GA || o.Clip != tc.Clip || o.MP != tc.MP || o.Ckpt != tc.Ckpt || o.Forward != tc.Forward || o.Backward != tc.Backward {
			continue
		}
		on := runs[0][j]
		if d, same := paramDiff(on.Params, runs[0][i].Params); !same {
			t.Errorf("%s: parameters differ from %s's by %g; want them equal to the bit", tc.Name, o.Name, d)
		}
		for r := range runs {
			got := runs[r][i]
			if got.StateBytes != 0 {
				t.Errorf("%s, rank %d: %d bytes on the device between steps; want none (the shards are in host memory)", tc.Name, r, got.StateBytes)
			}
			beyond := runs[r][j].PeakBytes - runs[r][j].StateBytes
			t.Logf("%s, rank %d: device peak %d bytes; %s's %d less its %d bytes of shards = %d", tc.Name, r, got.PeakBytes, o.Name, runs[r][j].PeakBytes, runs[r][j].StateBytes, beyond)
			if float64(got.PeakBytes) > 1.25*float64(beyond) {
				t.Errorf("%s, rank %d: device peak %d bytes; want at most %d (+25%%), %s's peak less its shards", tc.Name, r, got.PeakBytes, beyond, o.Name)
			}
		}
		return
	}
	t.Errorf("%s: no run without offload to compare with", tc.Name)
}

// Under bf16 mixed precision the units are gathered in bfloat16 while DDP's parameters stay
// float32 (autocast rounds them to bfloat16 for the matrix products only): the ops that run in
// float32 (layer norms, embeddings, biases) see parameters rounded to 8 bits of mantissa, a
// relative error of at most 2⁻⁹. The losses stay close: measured 1.1e-3 at worst over 20 steps
// (2 processes), against a tolerance of 1e-2. The parameters are held to AdamW's own bound:
// each step moves an element by about lr whatever its gradient's size, so an element whose
// gradient is near zero can step the other way under a slightly different gradient; 20 steps
// at lr 1e-2 bound the drift by 0.2 (measured: 0.067).
const (
	bf16LossTolerance  = 1e-2
	bf16ParamTolerance = 0.2
)

// checkBF16Gathers checks a bf16 sharded run (case i): every step's loss close to DDP's under
// bf16 autocast, half the all-gather bytes of the same run in float32, float32 shards.
func checkBF16Gathers(t *testing.T, n int, cases []fsdpCase, runs [][]fsdpRun, i int) {
	t.Helper()
	tc, got := cases[i], runs[0][i]
	for j, o := range cases {
		if o.MP == "bf16" && o.Strategy == "" && o.GA == tc.GA && o.Clip == tc.Clip {
			worst := 0.0
			for k, l := range got.Losses {
				worst = max(worst, math.Abs(l-runs[0][j].Losses[k]))
			}
			t.Logf("%d processes, %s: largest |Δloss| vs DDP under bf16 autocast over %d steps: %.3g", n, tc.Name, len(got.Losses), worst)
			if worst > bf16LossTolerance {
				t.Errorf("%s: a step's loss differs from DDP's under bf16 autocast by %g (tolerance %g)", tc.Name, worst, bf16LossTolerance)
			}
		}
		if o.MP == "" && o.Strategy == tc.Strategy && o.GA == tc.GA && o.Clip == tc.Clip && !o.Ckpt && !o.Forward && o.Backward == "" && !o.Offload {
			ratio := float64(got.Gathered) / float64(runs[0][j].Gathered)
			t.Logf("%d processes, %s: %d bytes gathered in 20 steps, %.3f of float32's %d", n, tc.Name, got.Gathered, ratio, runs[0][j].Gathered)
			if math.Abs(ratio-0.5) > 0.01 {
				t.Errorf("%s: the all-gathers received %d bytes, %.3f of float32's %d; want half", tc.Name, got.Gathered, ratio, runs[0][j].Gathered)
			}
		}
	}
	for r := 0; r < n; r++ {
		if ts := runs[r][i].ShardTypes; len(ts) != 1 || ts[0] != tensors.Float32.String() {
			t.Errorf("%s, rank %d: the master shards are %v after training; want float32", tc.Name, r, ts)
		}
	}
}

// paramDiff returns the largest absolute difference between two state dicts and whether they
// are equal to the bit.
func paramDiff(a, b map[string][]float32) (float64, bool) {
	if len(a) != len(b) {
		return math.Inf(1), false
	}
	d, same := 0.0, true
	for k, x := range a {
		y, ok := b[k]
		if !ok || len(x) != len(y) {
			return math.Inf(1), false
		}
		for i := range x {
			if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
				same = false
			}
			d = max(d, math.Abs(float64(x[i]-y[i])))
		}
	}
	return d, same
}

// TestFSDPTrainsAModelThatDoesNotFitOneDevice gives each of 4 processes a simulated device of
// 85% of what DDP's training state needs: DDP runs out of memory with an error that names the
// limit and suggests FSDP, full sharding trains.
func TestFSDPTrainsAModelThatDoesNotFitOneDevice(t *testing.T) {
	t.Setenv(EnvDevice, "sim")
	dir := sharedDir(t)
	launch(t, 4, func() {
		c := group()
		// AdamW's training state is 16 bytes per parameter (parameter, gradient, two moments).
		params := int64(0)
		for _, p := range nn.NewGPT(fsdpGPT).Parameters() {
			params += int64(p.Numel())
		}
		limit := 16 * params * 85 / 100
		dev := sim.Lookup("sim", c.LocalRank()%8)
		dev.SetMemoryLimit(limit)
		defer dev.SetMemoryLimit(0)
		var ddpErr string
		func() {
			defer func() {
				r := recover()
				err, ok := r.(error)
				if !ok || !errors.Is(err, tensors.ErrOutOfMemory) {
					panic(fmt.Sprintf("DDP did not run out of memory: %v", r))
				}
				ddpErr = err.Error()
				runtime.GC()
			}()
			trainFSDP(c, fsdpCase{Name: "ddp"})
		}()
		run := trainFSDP(c, fsdpCase{Name: "full-shard", Strategy: FullShard})
		writeJSON(resultPath(dir, fmt.Sprint("oom", c.Rank())), map[string]any{"ddp": ddpErr, "peak": run.PeakBytes, "limit": limit})
	})
	var got struct {
		DDP   string `json:"ddp"`
		Peak  int64  `json:"peak"`
		Limit int64  `json:"limit"`
	}
	readJSON(t, resultPath(dir, "oom0"), &got)
	t.Logf("limit %d bytes per device; full shard peaked at %d; DDP: %s", got.Limit, got.Peak, got.DDP)
	for _, want := range []string{fmt.Sprint(got.Limit), "FSDP", "--use_fsdp"} {
		if !strings.Contains(got.DDP, want) {
			t.Errorf("DDP's out-of-memory error does not name %q: %s", want, got.DDP)
		}
	}
	if got.Peak > got.Limit {
		t.Errorf("full shard peaked at %d bytes, over the limit %d", got.Peak, got.Limit)
	}
}

// checkGatheredLosses checks what GatherForMetrics gave every process in case i: each process's
// last loss, in rank order.
func checkGatheredLosses(t *testing.T, name string, runs [][]fsdpRun, i int) {
	t.Helper()
	for r := range runs {
		got := runs[r][i].AllLosses
		if len(got) != len(runs) {
			t.Errorf("%s, rank %d: GatherForMetrics gave %d losses; want one per process, %d", name, r, len(got), len(runs))
			continue
		}
		for q := range runs {
			last := runs[q][i].Losses
			if want := float64(float32(last[len(last)-1])); got[q] != want {
				t.Errorf("%s, rank %d: GatherForMetrics gave %g for rank %d; its last loss is %g", name, r, got[q], q, want)
			}
		}
	}
}
