// Package accelerate is the Go form of HuggingFace Accelerate: one training
// loop that runs unchanged on one process or on every process of a group
// started by notebook_launcher.Launch, `goaccel launch` or `%accelerate launch`.
//
//	acc := accelerate.New(accelerate.Config{GradientAccumulationSteps: 2})
//	var model nn.Module = nn.NewSequential(nn.NewLinear(784, 10))
//	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
//	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 8, Shuffle: true})
//	acc.Prepare(&model, &opt, &loader)
//	for loader.Next() {
//		x, y := loader.Batch()
//		acc.Accumulate(model, func() {
//			loss := tensors.CrossEntropy(model.Forward(x), y)
//			acc.Backward(loss)
//			opt.Step()
//			opt.ZeroGrad()
//		})
//	}
//
// A pretrained model of package transformers is prepared the same way from a
// variable of type transformers.Model (what FromPretrained returns) and stays
// one: its Run, model(**batch), runs under the configured autocast:
//
//	model, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 5})
//	acc.Prepare(&model, &opt, &loader, &sched)
//	for loader.Next() {
//		batch := loader.Named()
//		acc.Accumulate(model, func() {
//			out, err := model.Run(transformers.BatchInputs(batch))
//			…
//			acc.Backward(out.Loss)
//			acc.ClipGradNorm(model.Parameters(), 1.0)
//			opt.Step()
//			sched.Step()
//			opt.ZeroGrad()
//		})
//	}
//	acc.WaitForEveryone()
//	if acc.IsMainProcess() {
//		err = transformers.SavePretrained("out", acc.UnwrapModel(model), transformers.SaveOptions{})
//	}
//
// A model with batch normalisation converted by nn.ConvertSyncBatchNorm (or
// built with nn.SyncBatchNorm) normalises over the batch of every process once
// prepared: Prepare gives its layers the process group, whose sums run in turn
// with the gradient all-reduces during the backward pass. As PyTorch's
// DistributedDataParallel, a prepared model's buffers (running statistics) are
// rank 0's at Prepare and before each forward pass in training.
//
// The rules are Accelerate's: Backward divides the loss by the accumulation
// steps (and scales it under fp16); gradients are averaged across processes
// only on sync steps, in 25 MiB buckets (Config.DDP) overlapped with the
// backward pass; prepared optimizers and schedulers act only on sync steps;
// prepared loaders give global batch i to process i % n, fill the last round
// from the start of the epoch (EvenBatches) and share one shuffle order (a
// length-grouped one too, drawn with rank 0's seed); GatherForMetrics drops
// exactly the samples repeated by that filling.
//
// The rest of Accelerate's idioms have a Go form each: GatherForMetricsAll
// gathers predictions and targets in one call with the same dedupe;
// ClipGradNorm and ClipGradValue unscale fp16 gradients first; Autocast(fn) is
// `with accelerator.autocast():` for work outside the model; UnwrapModel with
// an IsMainProcess guard after WaitForEveryone (or SaveModel) exports the
// model once; SetSeed seeds every process alike (or per rank). Accelerate's
// kwargs handlers are Config fields: DDP (DistributedDataParallelKwargs:
// BucketCapMB), GradScaler (GradScalerKwargs: InitScale, GrowthFactor,
// BackoffFactor, GrowthInterval, Enabled) and InitProcessGroup
// (InitProcessGroupKwargs: Timeout).
//
// Config.FSDP (FullyShardedDataParallelPlugin, or `--use_fsdp`) shards each
// prepared model across the processes instead, with the same loop: each
// process keeps 1/N of every parameter, gradient and optimizer state; a
// block's parameters are all-gathered when a forward or backward pass first
// uses one and freed after; gradients are reduce-scattered and the prepared
// optimizer steps the shards; gradients are reduce-scattered while the
// backward pass goes on, and ForwardPrefetch and BackwardPrefetch start the
// next unit's all-gather while the current one computes; under bf16 mixed
// precision the units are gathered in bfloat16 from float32 shards; CPUOffload
// keeps the shards and the optimizer state in host memory. UnwrapModel,
// GetStateDict, SaveModel and SaveState gather the whole model and must be
// called on every process.
//
// Trackers (Config.LogWith, InitTrackers, Log, LogImages, LogText) record a
// run on the main process: "jsonl", "notebook" (a live plot under the cell),
// "tensorboard" (event files under LoggingDir/<project>, which TensorBoard
// reads) and "mlflow" (MLflow's file store in LoggingDir/mlruns, or the
// tracking server MLFLOW_TRACKING_URI names); AddTracker takes any other,
// a progress bar included. Profile(kwargs, fn) records fn's ops,
// backward nodes, collectives and data loading per process as Chrome
// traces and a table of top ops. FindExecutableBatchSize retries on a
// device's out-of-memory; SetTrigger/CheckTrigger stop every process when
// one asks; JoinUnevenInputs trains over uneven shards; FreeMemory,
// GetStateDict and the save/load state pre-hooks are Accelerate's too.
//
// Device returns where prepared models and batches live: cuda:LOCAL_RANK on a
// machine with GPUs (the model moves there at Prepare, each batch as the
// loader yields it, every tensor of a named batch), the CPU otherwise or with Config.CPU; GOACCEL_DEVICE
// names another device type. With GPUs the gradient all-reduce runs in NCCL
// (package cuda/nccl) when every process has a GPU of its own.
//
// Checkpoints (SaveState/LoadState) use Accelerate's folder layout:
// model.safetensors (model_1.safetensors, … for further models),
// optimizer.bin, scheduler.bin (the optim state dicts: JSON in the layout
// of PyTorch's state_dict(), see package optim), one
// random_states_N.json per process (our format: {"rank", "generator"} with
// the tensors default generator's state, base64), custom_checkpoint_K.bin for
// objects given to RegisterForCheckpointing, and goaccel_state.json with the
// checkpoint iteration, step counter, fp16 loss scale and the loaders' epochs.
// goaccel_manifest.json, written last, lists the other files and their sizes:
// a folder without a complete manifest is never loaded in place of a complete
// one, so a save killed at any point leaves the previous checkpoint loadable
// (package accelerate/internal/atomicdir publishes the folder).
//
// Under a launcher (notebook_launcher, goaccel launch, %accelerate launch)
// the Accelerator tells it what the process is doing (steps, samples, the
// collective in progress: the launcher's status table), stops when the
// launcher asks, at a step boundary every process agrees on (the moment a
// prepared loader is asked for its next batch), and, in a restarted group
// or a launch with --resume, loads the latest automatic checkpoint at
// Prepare, so that a loop over `for epoch := loader.Epoch(); epoch < n;
// epoch++` continues mid-epoch. A stop has two modes: an interrupt (the
// notebook's ■, Ctrl-C, notebook_launcher.Stop) saves an automatic
// checkpoint (the working directory's checkpoints/ without a ProjectDir)
// and ends the process, and the launch names the folder; a notebook's Stop
// button (notebook_launcher.StopButton) ends the training pass there,
// evaluation under tensors.NoGrad still runs and the function returns what
// it has, after saving an automatic checkpoint when Config.ProjectDir is
// set. StopRequested reports an agreed stop to loops of other shapes.
//
// Importing the package registers the CUDA device (package cuda) and the
// NCCL collective backend (package cuda/nccl), so a training program needs
// no import of its own to use GPUs.
//
// Files:
//   - accelerator.go: Accelerator and New, and the process queries and
//     helpers (IsMainProcess, ProcessIndex, NumProcesses, Device, Print,
//     WaitForEveryone, MainProcessFirst, SplitBetweenProcesses, EndTraining).
//   - checkpoint.go: Checkpointable, RegisterForCheckpointing, SaveState and
//     LoadState: Accelerate's folder layout and the manifest written last.
//   - checkpoint_folders.go: automatic checkpoint folders: numbering,
//     recovery of incomplete saves, pruning and the latest one.
//   - comm.go: what the Accelerator needs from a process group, and the
//     one-process stand-in.
//   - config.go: Toggle, Config and the kwargs handlers
//     (DistributedDataParallelKwargs, GradScalerKwargs,
//     InitProcessGroupKwargs), resolved against the launcher's environment.
//   - device.go: EnvDevice, the choice of device per local rank, and of the
//     collective backend (NCCL when every process has a GPU of its own).
//   - fsdp.go: fully sharded data parallelism: the units of the auto-wrap
//     policies, sharding each parameter at Prepare, the optimizers pointed at
//     the shards, the out-of-memory hint that suggests FSDP.
//   - fsdp_config.go: FullyShardedDataParallelPlugin, ShardingStrategy, the
//     auto-wrap policies, and the FSDP_* variables `--use_fsdp` exports.
//   - fsdp_device.go: FSDP's gathers and reduce-scatters on device memory
//     when the group's collectives run there (NCCL), in buffers made once,
//     and its prefetched gathers on NCCL's side stream.
//   - fsdp_optim_state.go: an FSDP optimizer's state gathered whole for
//     SaveState (DDP's layout) and cut to shards again at LoadState.
//   - fsdp_sharded_state.go: SHARDED_STATE_DICT: each process's shards
//     written by SaveState, put back together by LoadState.
//   - fsdp_prefetch.go: FSDP's collectives on their own goroutines, one after
//     another: the prefetch of the next unit's all-gather (forward order, and
//     BACKWARD_PRE / BACKWARD_POST in the backward pass, predicted from the
//     last pass's order of gathers) and the reduce-scatters that run while
//     the backward pass goes on.
//   - fsdp_mixed.go: FSDP under bf16 mixed precision: the shards packed two
//     bfloat16 values to a float32 slot for the all-gather, and widened again.
//   - fsdp_pass.go: FSDP in a pass: gathering a unit on first use, freeing
//     it, reduce-scattering its gradients, ClipGradNorm over shards, the whole
//     model gathered for UnwrapModel, SaveModel, GetStateDict and SaveState.
//   - gather.go: Gather, GatherForMetrics, GatherForMetricsAll, Reduce and
//     PadAcrossProcesses.
//   - hooks.go: SaveStatePreHook, LoadStatePreHook, RemovableHandle and
//     their registration (RegisterSaveStatePreHook, RegisterLoadStatePreHook).
//   - join.go: JoinUnevenInputs: joined processes shadow the gradient
//     all-reduce of the others, then take the last joiner's parameters.
//   - group.go: joining the dist process group and leaving it cleanly, and
//     the dist adapter of comm.
//   - loader.go: prepared loaders: sharding, the end-of-epoch state and
//     SkipFirstBatches.
//   - logger.go: Logger and GetLogger, logging on the main process (or all).
//   - memory.go: FreeMemory and Clear, FindExecutableBatchSize and
//     FindExecutableBatchSizeWith (retries on tensors.ErrOutOfMemory).
//   - model.go: the prepared model, UnwrapModel, SaveModel, the broadcast
//     of initial parameters and of buffers, and the process group of
//     SyncBatchNorm layers.
//   - notebook_tracker.go: the "notebook" tracker, a plots.Live under the
//     cell.
//   - notebook_tracker_media.go: the notebook tracker's images and texts,
//     an output per tag updated in place.
//   - optimizer.go: prepared optimizers and schedulers, which act only on
//     sync steps.
//   - prepare.go: Prepare and its hints for the objects it takes.
//   - pretrained.go: prepared transformers.Model values, which keep their Run.
//   - profile.go: Profile, ProfileKwargs, ProfileResult (Rows, Table, HTML,
//     WriteChromeTrace): the Chrome traces and the table of top ops.
//   - reducer.go: bucketed gradient all-reduce overlapped with the backward
//     pass (OnGradReady hooks; on devices, one flat tensor per bucket), and
//     the other collectives of a backward pass queued in turn with it.
//   - resume.go: resuming at Prepare when the launcher asks, Resumed, and
//     custom objects registered after a resume.
//   - rng.go: SetSeed.
//   - scaler.go: the fp16 loss scaler (PyTorch's GradScaler).
//   - shard.go: how one process takes its share of a loader's batches
//     (round robin or split, EvenBatches).
//   - statedict.go: GetStateDict.
//   - stop.go: a launcher's stop at a step boundary every rank agrees on
//     (the prepared loaders' StopPass): save and leave, or finish and
//     return; StopRequested.
//   - tracking.go: Tracker, AddTracker, InitTrackers, Log and the jsonl
//     tracker.
//   - tracking_media.go: ImageTracker, TextTracker, LogImages, LogText, and
//     the refusal of Accelerate's trackers goaccel does not have.
//   - tracking_mlflow.go: the "mlflow" tracker (package
//     accelerate/internal/mlflow: the file store and the REST API).
//   - tracking_tensorboard.go: the "tensorboard" tracker (package
//     accelerate/internal/tensorboard: event files).
//   - train.go: Backward, Accumulate, NoSync, Autocast, ClipGradNorm and
//     ClipGradValue.
//   - triggers.go: SetTrigger and CheckTrigger.
package accelerate
