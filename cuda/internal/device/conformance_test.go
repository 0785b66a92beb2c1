package device

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/kernels"
	"github.com/goaccel/goaccel/tensors/backend/backendtest"
)

// TestCUDADevicePassesTheDeviceSuite runs the conformance suite of every device on the emulated
// GPU: each of goaccel's kernels and cuBLAS's products through the bindings, in every element
// type it has, against the suite's float64 references.
func TestCUDADevicePassesTheDeviceSuite(t *testing.T) { backendtest.Run(t, open(t)) }

// ptxKind is the Go marshalling a PTX parameter type wants.
func ptxKind(p kernels.Param) string {
	switch p.Type {
	case "u32", "s32", "b32":
		return "int32"
	case "u64", "s64", "b64":
		return "int64"
	case "f32":
		return "float32"
	case "f64":
		return "float64"
	}
	return "struct"
}

// TestEveryPTXEntryGetsTheParametersItDeclares compares, for every entry of the embedded PTX,
// the .param list (count, C type, size, alignment) with what the Go side marshals for each of
// its launches: a parameter of the wrong width or type would otherwise be read from the
// neighbouring bytes by the GPU. Every entry must be launched: a kernel added to the sources
// needs a check in the device suite (tensors/backend/backendtest) that launches it.
func TestEveryPTXEntryGetsTheParametersItDeclares(t *testing.T) {
	ents, err := kernels.Entries()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]kernels.Param{}
	for _, e := range ents {
		want[e.Name] = e.Params
	}
	d := open(t)
	launched, reported := map[string]bool{}, map[string]bool{}
	d.onLaunch = func(name string, args []arg, at []unsafe.Pointer) {
		launched[name] = true
		ps, ok := want[name]
		if !ok {
			t.Errorf("launch of %s, which the PTX does not have", name)
			return
		}
		if len(ps) != len(args) {
			t.Errorf("%s: %d parameters marshalled, the PTX declares %d", name, len(args), len(ps))
			return
		}
		for i, p := range ps {
			a := args[i]
			key := fmt.Sprint(name, i)
			if (a.kind != ptxKind(p) || len(a.bytes) != p.Size || (a.kind == "struct" && a.align != p.Align) || uintptr(at[i])%uintptr(p.Align) != 0) && !reported[key] {
				reported[key] = true
				t.Errorf("%s parameter %d: marshalled as %s of %d bytes (alignment %d, at %p); the PTX declares .%s of %d bytes aligned to %d",
					name, i, a.kind, len(a.bytes), a.align, at[i], p.Type, p.Size, p.Align)
			}
		}
	}
	defer func() { d.onLaunch = nil }()
	backendtest.Run(t, d)
	var missing []string
	for name := range want {
		if !launched[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the device suite launches no %s: add a check to tensors/backend/backendtest for each kernel", strings.Join(missing, ", "))
	}
}
