package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Embedding maps int64 indices to rows of Weight [num, dim] (torch.nn.Embedding).
type Embedding struct {
	Weight *tensors.Tensor
}

// NewEmbedding returns an Embedding of num vectors of size dim, initialised N(0, 1) as PyTorch does.
func NewEmbedding(num, dim int) *Embedding {
	if num <= 0 || dim <= 0 {
		panic(fmt.Sprintf("nn: NewEmbedding: num and dim must be positive, got %d and %d", num, dim))
	}
	return &Embedding{Weight: tensors.Randn(num, dim).SetRequiresGrad(true)}
}

// Forward looks up the rows of the int64 indices x; the result has shape x.Shape() + [dim].
func (e *Embedding) Forward(x *tensors.Tensor) *tensors.Tensor { return tensors.Embedding(e.Weight, x) }

// Parameters returns the weight.
func (e *Embedding) Parameters() []*tensors.Tensor { return []*tensors.Tensor{e.Weight} }

// NamedParameters returns "weight".
func (e *Embedding) NamedParameters() []NamedParameter { return []NamedParameter{{"weight", e.Weight}} }
