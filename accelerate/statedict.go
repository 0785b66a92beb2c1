package accelerate

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// GetStateDict returns the parameters and buffers of a prepared model by name, under the
// names of the model as the user built it (Accelerate's get_state_dict with unwrap=True):
// what SaveState writes to model.safetensors and nn.LoadStateDict takes back. The tensors
// share the model's storage (as PyTorch's state_dict): save or copy them, do not train through
// them. A model that was not prepared is taken as it is.
func (a *Accelerator) GetStateDict(model nn.Module) map[string]*tensors.Tensor {
	return nn.StateDict(a.UnwrapModel(model))
}
