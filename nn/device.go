package nn

import "github.com/goaccel/goaccel/tensors"

// MoveTo moves every parameter and buffer of m to device d in place (PyTorch's model.to(device))
// and returns m. The parameters keep their identity, so an optimizer built over m.Parameters()
// before the move updates them where they now live.
func MoveTo(m Module, d tensors.Device) Module {
	for _, p := range m.Parameters() {
		p.MoveTo(d)
	}
	for _, b := range bufferTensors(m) {
		b.MoveTo(d)
	}
	return m
}
