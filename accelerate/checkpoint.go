package accelerate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/accelerate/internal/atomicdir"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// Checkpointable is a custom object saved and restored with the training
// state (RegisterForCheckpointing). optim.Optimizer and optim.Scheduler are
// Checkpointable.
type Checkpointable interface {
	StateDict() ([]byte, error)
	LoadStateDict(state []byte) error
}

// RegisterForCheckpointing adds objects that SaveState and LoadState save
// and restore (as custom_checkpoint_K.bin, in registration order). After
// Prepare resumed from a checkpoint, the objects get their state from it.
func (a *Accelerator) RegisterForCheckpointing(objs ...Checkpointable) {
	first := len(a.custom)
	a.custom = append(a.custom, objs...)
	a.resumeCustom(first)
}

// goaccelState is goaccel_state.json: what Accelerate's layout lacks to resume exactly.
type goaccelState struct {
	Iteration    int     `json:"iteration"`
	Step         int     `json:"step"`
	LossScale    float64 `json:"loss_scale,omitempty"`
	ScaleGrowth  int     `json:"loss_scale_growth,omitempty"`
	LoaderEpochs []int   `json:"loader_epochs"`
	// LoaderPositions are the batches of each loader's pass in progress
	// whose steps were done; its next pass after LoadState starts there.
	LoaderPositions []int `json:"loader_positions,omitempty"`
	// OptimizerSteps counts the steps the first prepared optimizer took.
	OptimizerSteps int64 `json:"optimizer_steps,omitempty"`
}

type rngState struct {
	Rank      int    `json:"rank"`
	Generator []byte `json:"generator"`
}

func indexed(base string, i int, ext string) string {
	if i == 0 {
		return base + ext
	}
	return base + "_" + strconv.Itoa(i) + ext
}

// SaveState writes the training state of every prepared object to dir, or,
// when dir is "" and AutomaticCheckpointNaming is on, to
// ProjectDir/checkpoints/checkpoint_N (keeping at most TotalLimit of those).
// Every process must call it. It returns the folder written.
//
// A kill at any instant never damages the previous checkpoint: the files go
// to a temporary folder beside dir, each fsynced, with a manifest
// (goaccel_manifest.json) written last; the folder then replaces dir by
// renames that LoadState reads through and the next SaveState completes if
// they were interrupted. Old automatic checkpoints are deleted only once the
// new one is complete, and each is renamed aside before it is deleted.
func (a *Accelerator) SaveState(dir string) (string, error) {
	if dir == "" && !a.cfg.AutomaticCheckpointNaming {
		return "", errors.New("accelerate: SaveState: give a folder, or set Config.AutomaticCheckpointNaming and ProjectDir")
	}
	return a.saveState(dir, dir == "")
}

// saveForStop saves an automatic checkpoint numbered after every complete
// one in the project folder (a run that never saved before, in a folder an
// earlier run used, adds to its checkpoints rather than replacing its
// first). Rank 0 decides the number, so every rank writes the same folder.
func (a *Accelerator) saveForStop() (string, error) {
	next := a.saveIteration
	if a.IsMainProcess() {
		if ns := a.checkpointNumbers(true); len(ns) > 0 {
			next = max(next, ns[len(ns)-1]+1)
		}
	}
	b, err := a.c.BroadcastBytes([]byte(strconv.Itoa(next)), 0)
	if err != nil {
		return "", fmt.Errorf("accelerate: SaveState: %w", err)
	}
	a.saveIteration, _ = strconv.Atoi(string(b))
	return a.saveState("", true)
}

// saveState is SaveState; with auto, dir is the next automatic checkpoint.
func (a *Accelerator) saveState(dir string, auto bool) (string, error) {
	prev := a.worker.SetPhase(workerinfo.PhaseSaving)
	defer a.worker.SetPhase(prev)
	iteration := a.saveIteration
	if auto {
		dir = a.checkpointFolder(iteration)
	}
	folder := atomicdir.Folder{Path: dir, Hook: a.checkpointHook}
	tmp := folder.Staging()
	var err error
	if a.IsMainProcess() {
		if auto {
			err = a.recoverCheckpoints()
		} else {
			err = folder.Recover()
		}
		if err == nil {
			_, err = folder.Stage()
		}
	}
	if err = a.agree(err); err != nil {
		return "", fmt.Errorf("accelerate: SaveState %s: %w", dir, err)
	}
	weights, err := a.modelWeights(tmp)
	if err == nil {
		err = a.writeRandomState(tmp)
	}
	if err == nil && a.IsMainProcess() {
		err = a.writeMainState(tmp, iteration, weights)
	}
	if err = a.agree(err); err != nil {
		return "", fmt.Errorf("accelerate: SaveState %s: %w", dir, err)
	}
	if a.IsMainProcess() {
		err = folder.Publish()
		if err == nil && auto {
			err = a.pruneCheckpoints(iteration)
		}
	}
	if err = a.agree(err); err != nil {
		return "", fmt.Errorf("accelerate: SaveState %s: %w", dir, err)
	}
	a.saveIteration = iteration + 1
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	a.worker.SetCheckpoint(dir, a.optimizerSteps, false)
	return dir, nil
}

// agree makes every process see an error if any process had one.
func (a *Accelerator) agree(err error) error {
	msg := ""
	if err != nil {
		msg = fmt.Sprintf("rank %d: %v", a.c.Rank(), err)
	}
	all, cerr := a.c.AllGatherBytes([]byte(msg))
	if cerr != nil {
		return cerr
	}
	var errs []string
	for _, m := range all {
		if len(m) > 0 {
			errs = append(errs, string(m))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

func (a *Accelerator) writeRandomState(dir string) error {
	b, err := json.Marshal(rngState{Rank: a.c.Rank(), Generator: tensors.DefaultGenerator().State()})
	if err != nil {
		return err
	}
	return a.writeFile(dir, "random_states_"+strconv.Itoa(a.c.Rank())+".json", b)
}

// writeFile writes one checkpoint file and fsyncs it.
func (a *Accelerator) writeFile(dir, name string, b []byte) error {
	if a.checkpointHook != nil {
		a.checkpointHook("write " + name)
	}
	return atomicdir.WriteFile(filepath.Join(dir, name), b, 0o644)
}

func (a *Accelerator) writeMainState(dir string, iteration int, weights []map[string]*tensors.Tensor) error {
	for i, sd := range weights {
		if sd == nil {
			continue // a save hook saved this model itself
		}
		path := filepath.Join(dir, indexed("model", i, ".safetensors"))
		if a.checkpointHook != nil {
			a.checkpointHook("write " + filepath.Base(path))
		}
		if err := nn.SaveSafetensors(path, sd, map[string]string{"format": "pt"}); err != nil {
			return fmt.Errorf("save model %d: %w", i, err)
		}
		if err := atomicdir.Sync(path); err != nil {
			return fmt.Errorf("save model %d: %w", i, err)
		}
	}
	save := func(name string, c Checkpointable) error {
		b, err := c.StateDict()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return a.writeFile(dir, name, b)
	}
	for i, o := range a.optimizers {
		if err := save(indexed("optimizer", i, ".bin"), o.inner); err != nil {
			return err
		}
	}
	for i, s := range a.schedulers {
		if err := save(indexed("scheduler", i, ".bin"), s.inner); err != nil {
			return err
		}
	}
	for i, c := range a.custom {
		if err := save("custom_checkpoint_"+strconv.Itoa(i)+".bin", c); err != nil {
			return err
		}
	}
	st := goaccelState{Iteration: iteration, Step: a.step, OptimizerSteps: a.optimizerSteps}
	if a.scaler != nil {
		st.LossScale, st.ScaleGrowth = a.scaler.scale, a.scaler.growth
	}
	for _, s := range a.samplers {
		st.LoaderEpochs = append(st.LoaderEpochs, s.loader.Epoch())
		// At a stop's boundary Position does not count the batch about to
		// be handed out: the resumed pass starts with it.
		st.LoaderPositions = append(st.LoaderPositions, s.loader.Position())
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return a.writeFile(dir, "goaccel_state.json", b)
}

// LoadState restores what SaveState wrote in dir (or, when dir is "" with
// AutomaticCheckpointNaming, the latest automatic checkpoint), including the
// checkpoint iteration, so the next automatic SaveState continues the
// numbering, and each prepared loader's epoch and place in it: a pass that
// was in progress resumes after the batches it had handed out when the
// state was saved (as Accelerate's stateful loaders do; SkipFirstBatches
// sets another place). Every process must call it after
// Prepare. A checkpoint of a different model gives an error naming the
// mismatched tensors. A save that was interrupted is read through: LoadState
// takes the newest complete checkpoint, never a partial one.
func (a *Accelerator) LoadState(dir string) error {
	from := dir
	if dir == "" {
		if !a.cfg.AutomaticCheckpointNaming {
			return errors.New("accelerate: LoadState: give a folder, or set Config.AutomaticCheckpointNaming and ProjectDir")
		}
		var ok bool
		if dir, from, ok = a.latestCheckpoint(); !ok {
			return fmt.Errorf("accelerate: LoadState: no folder given and no automatic checkpoint under %s", a.checkpointRoot())
		}
	} else {
		from, _ = atomicdir.Folder{Path: dir}.Resolve()
	}
	if err := a.loadState(from); err != nil {
		return fmt.Errorf("accelerate: LoadState %s: %w", dir, err)
	}
	a.worker.SetCheckpoint(dir, a.optimizerSteps, true)
	return nil
}

func (a *Accelerator) loadState(dir string) error {
	prev := a.worker.SetPhase(workerinfo.PhaseRestoring)
	defer a.worker.SetPhase(prev)
	models, err := a.modelsToLoad(dir)
	if err != nil {
		return err
	}
	for i, m := range models {
		if m == nil {
			continue // a load hook loaded this model itself
		}
		sd, err := nn.LoadSafetensors(filepath.Join(dir, indexed("model", i, ".safetensors")))
		if err != nil {
			return err
		}
		if err := nn.LoadStateDict(m, sd); err != nil {
			return err
		}
	}
	load := func(name string, c Checkpointable) error {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := c.LoadStateDict(b); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	for i, o := range a.optimizers {
		if err := load(indexed("optimizer", i, ".bin"), o.inner); err != nil {
			return err
		}
	}
	for i, s := range a.schedulers {
		if err := load(indexed("scheduler", i, ".bin"), s.inner); err != nil {
			return err
		}
	}
	for i, c := range a.custom {
		if err := load("custom_checkpoint_"+strconv.Itoa(i)+".bin", c); err != nil {
			return err
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "random_states_"+strconv.Itoa(a.c.Rank())+".json")); err == nil {
		var rs rngState
		if err := json.Unmarshal(b, &rs); err != nil {
			return fmt.Errorf("random_states_%d.json: %w", a.c.Rank(), err)
		}
		if err := tensors.DefaultGenerator().SetState(rs.Generator); err != nil {
			return fmt.Errorf("random_states_%d.json: %w", a.c.Rank(), err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "goaccel_state.json"))
	if err != nil {
		return err
	}
	var st goaccelState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("goaccel_state.json: %w", err)
	}
	a.saveIteration = st.Iteration + 1
	a.step = st.Step
	if a.scaler != nil && st.LossScale > 0 {
		a.scaler.scale, a.scaler.growth = st.LossScale, st.ScaleGrowth
	}
	for i, s := range a.samplers {
		if i < len(st.LoaderEpochs) {
			s.loader.SetEpoch(st.LoaderEpochs[i])
		}
		if i < len(st.LoaderPositions) && st.LoaderPositions[i] > 0 {
			s.loader.SkipBatches(st.LoaderPositions[i])
		}
	}
	a.optimizerSteps = st.OptimizerSteps
	a.worker.SetSteps(st.OptimizerSteps)
	return nil
}
