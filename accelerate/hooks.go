package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// SaveStatePreHook is called by SaveState on every process before it writes the models
// (Accelerate's register_save_state_pre_hook): models are the prepared models, unwrapped,
// weights their state dicts in the same order (what SaveState writes as model.safetensors,
// model_1.safetensors, …), and dir the folder being written (a staging folder that becomes the
// checkpoint once complete: files a hook writes there are part of the checkpoint). A hook
// may change a state dict, or set weights[i] to nil to save model i itself (SaveState then
// writes no file for it). An error stops SaveState.
type SaveStatePreHook func(models []nn.Module, weights []map[string]*tensors.Tensor, dir string) error

// LoadStatePreHook is called by LoadState on every process before it loads the models
// (Accelerate's register_load_state_pre_hook): models are the prepared models, unwrapped, and
// dir the checkpoint folder. A hook may set models[i] to nil to load model i itself (LoadState
// then skips it). An error stops LoadState.
type LoadStatePreHook func(models []nn.Module, dir string) error

// RemovableHandle takes a registered hook off (torch.utils.hooks.RemovableHandle).
type RemovableHandle struct{ remove func() }

// Remove unregisters the hook; a second call does nothing.
func (h *RemovableHandle) Remove() {
	if h != nil && h.remove != nil {
		h.remove()
		h.remove = nil
	}
}

// hookList keeps hooks in registration order.
type hookList[H any] struct {
	next  int
	hooks []keyed[H]
}

type keyed[H any] struct {
	id int
	h  H
}

func (l *hookList[H]) add(h H) *RemovableHandle {
	id := l.next
	l.next++
	l.hooks = append(l.hooks, keyed[H]{id, h})
	return &RemovableHandle{remove: func() {
		for i, k := range l.hooks {
			if k.id == id {
				l.hooks = append(l.hooks[:i:i], l.hooks[i+1:]...)
				return
			}
		}
	}}
}

// RegisterSaveStatePreHook adds hook, called by every later SaveState before the models are
// written, after the hooks registered before it.
func (a *Accelerator) RegisterSaveStatePreHook(hook SaveStatePreHook) *RemovableHandle {
	return a.saveHooks.add(hook)
}

// RegisterLoadStatePreHook adds hook, called by every later LoadState before the models are
// loaded, after the hooks registered before it.
func (a *Accelerator) RegisterLoadStatePreHook(hook LoadStatePreHook) *RemovableHandle {
	return a.loadHooks.add(hook)
}

// unwrappedModels are the prepared models as the user built them.
func (a *Accelerator) unwrappedModels() []nn.Module {
	out := make([]nn.Module, len(a.models))
	for i, m := range a.models {
		out[i] = m.inner
	}
	return out
}

// modelWeights returns the state dicts SaveState writes, after the save hooks saw them.
func (a *Accelerator) modelWeights(dir string) ([]map[string]*tensors.Tensor, error) {
	models := a.unwrappedModels()
	weights := make([]map[string]*tensors.Tensor, len(models))
	for i, m := range models {
		weights[i] = nn.StateDict(m)
	}
	for _, k := range a.saveHooks.hooks {
		if err := k.h(models, weights, dir); err != nil {
			return nil, fmt.Errorf("save state pre-hook %d: %w", k.id, err)
		}
	}
	return weights, nil
}

// modelsToLoad returns the models LoadState loads (nil where a load hook took one over).
func (a *Accelerator) modelsToLoad(dir string) ([]nn.Module, error) {
	models := a.unwrappedModels()
	for _, k := range a.loadHooks.hooks {
		if err := k.h(models, dir); err != nil {
			return nil, fmt.Errorf("load state pre-hook %d: %w", k.id, err)
		}
	}
	return models, nil
}
