package nn

// Modules returns m and every module reachable from it through exported fields (the layers of
// containers included), depth first in field order, each once (PyTorch's model.modules()):
// what package accelerate's FSDP auto-wrap policies look through to find a model's blocks.
func Modules(m Module) []Module {
	var out []Module
	forEachModule(m, func(x Module) { out = append(out, x) })
	return out
}
