package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// interopTensor is how tests/safetensors_interop.py and this test tell each
// other what a file must hold: the safetensors dtype, the shape, every
// element's bits in that dtype (for floats; exact, NaN and -0 included),
// its value as text that strconv.ParseFloat and Python's float() both read
// ("+Inf", "-0", "NaN", a shortest decimal), and for I64 the integers
// themselves.
type interopTensor struct {
	DType  string   `json:"dtype"`
	Shape  []int    `json:"shape"`
	Bits   []uint64 `json:"bits,omitempty"`
	Values []string `json:"values"`
	Ints   []int64  `json:"ints,omitempty"`
}

// interopFile is a whole file's expectations.
type interopFile struct {
	Metadata map[string]string        `json:"metadata"`
	Tensors  map[string]interopTensor `json:"tensors"`
}

// TestSafetensorsInteropWithPythonsReader checks goaccel's safetensors
// against Python's own library (safetensors 0.8 of the PyPI stack, its Rust
// reader and writer): the weights Accelerator.SaveModel writes and a state
// dict of every dtype goaccel stores (F32, F64, F16, BF16, I64; infinities,
// NaN, -0, subnormals, extremes) load with safetensors.numpy with equal
// values, shapes, dtypes and metadata, and safetensors.numpy.save of the
// same tensors writes the same file (header layout, padding, data; the
// metadata keys in any order); files Python's safetensors writes
// (safetensors.numpy.save_file, BF16 from ml_dtypes.bfloat16 arrays) load in
// goaccel with equal values and dtypes. NumPy has no bfloat16 and
// safetensors.numpy cannot load BF16: the Python side reads BF16 through
// safetensors.deserialize and ml_dtypes.bfloat16, and compares raw bits.
func TestSafetensorsInteropWithPythonsReader(t *testing.T) {
	var pypi jupyterStack
	for _, s := range jupyterStacks() {
		if s.name == "pypi" {
			pypi = s
		}
	}
	pypi.require(t, "safetensors", "numpy", "ml_dtypes")
	t.Logf("pypi stack: %s", pypi.versions("safetensors", "numpy", "ml_dtypes"))
	dir := t.TempDir()

	// What goaccel writes: a model through SaveModel, and every dtype.
	model := nn.NewSequential(nn.NewLinear(5, 3), nn.ReLU{}, nn.NewLinear(3, 2))
	acc := accelerate.New(accelerate.Config{CPU: true})
	modelDir := filepath.Join(dir, "model")
	if err := acc.SaveModel(model, modelDir); err != nil {
		t.Fatal(err)
	}
	writeInterop(t, filepath.Join(modelDir, "model.json"), nn.StateDict(model), map[string]string{"format": "pt"})

	sd := interopStateDict()
	dtypes := filepath.Join(dir, "dtypes.safetensors")
	md := map[string]string{"format": "pt", "written_by": "goaccel", "note": "ünïcode ☃"}
	if err := nn.SaveSafetensors(dtypes, sd, md); err != nil {
		t.Fatal(err)
	}
	writeInterop(t, filepath.Join(dir, "dtypes.json"), sd, md)

	pyDir := filepath.Join(dir, "python")
	if err := os.MkdirAll(pyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pypi.python, "safetensors_interop.py",
		filepath.Join(modelDir, "model.safetensors"), filepath.Join(modelDir, "model.json"),
		dtypes, filepath.Join(dir, "dtypes.json"), "--write", pyDir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("safetensors_interop.py:\n%s", out.String())
	if err != nil {
		t.Fatalf("Python's safetensors disagrees with goaccel's files (see above): %v", err)
	}

	// What Python's safetensors wrote, loaded by goaccel.
	for _, name := range []string{"numpy", "bf16"} {
		var want interopFile
		raw, err := os.ReadFile(filepath.Join(pyDir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(pyDir, name+".safetensors")
		got, err := nn.LoadSafetensors(path)
		if err != nil {
			t.Fatalf("goaccel cannot load %s.safetensors, written by Python's safetensors: %v", name, err)
		}
		gotMD, err := nn.LoadSafetensorsMetadata(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Metadata) > 0 && !mapsEqual(gotMD, want.Metadata) {
			t.Errorf("%s.safetensors: metadata %v, Python wrote %v", name, gotMD, want.Metadata)
		}
		if len(got) != len(want.Tensors) {
			t.Errorf("%s.safetensors: goaccel loaded %d tensors, Python wrote %d", name, len(got), len(want.Tensors))
		}
		for tn, w := range want.Tensors {
			g, ok := got[tn]
			if !ok {
				t.Errorf("%s.safetensors: goaccel lacks tensor %q", name, tn)
				continue
			}
			if d := describeInterop(g); !slices.Equal(d.Shape, w.Shape) || d.DType != w.DType ||
				!slices.Equal(d.Bits, w.Bits) || !slices.Equal(d.Ints, w.Ints) || !sameValues(d.Values, w.Values) {
				t.Errorf("%s.safetensors %q: goaccel loaded %s %v values %v (bits %x), Python wrote %s %v values %v (bits %x)",
					name, tn, d.DType, d.Shape, d.Values, d.Bits, w.DType, w.Shape, w.Values, w.Bits)
			}
		}
	}
}

// interopStateDict holds every dtype goaccel stores, with edge values.
func interopStateDict() map[string]*tensors.Tensor {
	inf, nan := math.Inf(1), math.NaN()
	f32 := []float32{0, float32(math.Copysign(0, -1)), 1.5, -2.25, math.MaxFloat32, math.SmallestNonzeroFloat32,
		float32(inf), float32(-inf), float32(nan), 0.1, 1e-38, -3.1415927}
	// bf16 and f16 tensors hold float32s that each format represents exactly
	// (goaccel rounds to nearest even on the way in).
	bf := []float32{1, -2.5, 0.15625, half.BF16ToF32(0x7f7f) /* max */, half.BF16ToF32(0x0001), /* smallest subnormal */
		float32(inf), float32(-inf), float32(math.Copysign(0, -1)), 3.140625, -1e-3}
	for i, v := range bf {
		bf[i] = half.BF16ToF32(half.F32ToBF16(v))
	}
	f16 := []float32{1, -2.5, 65504, half.F16ToF32(0x0001), float32(inf), -0.000061035156, 0.333251953125, 0}
	return map[string]*tensors.Tensor{
		"f32.edges":     tensors.New(f32, 3, 4),
		"f64.edges":     tensors.NewFloat64([]float64{0, math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64, inf, -inf, 0.1, 1.0 / 3}, 2, 2, 2),
		"bf16.edges":    tensors.New(bf, 2, 5).AsType(tensors.BFloat16),
		"f16.edges":     tensors.New(f16, 8).AsType(tensors.Float16),
		"i64.edges":     tensors.FromInt64([]int64{0, -1, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1}, 6),
		"scalar.f32":    tensors.New([]float32{42}),
		"layer.0.bias":  tensors.New([]float32{0.5, -0.5, 0.25}, 3),
		"empty.f32":     tensors.New([]float32{}, 0, 3),
		"embedding.w.ü": tensors.New([]float32{1, 2, 3, 4}, 2, 2),
	}
}

// describeInterop is a tensor as interopTensor describes it.
func describeInterop(t *tensors.Tensor) interopTensor {
	d := interopTensor{Shape: t.Shape()}
	if d.Shape == nil {
		d.Shape = []int{}
	}
	text := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch t.DType() {
	case tensors.Int64:
		d.DType, d.Ints = "I64", t.Int64s()
		for _, v := range d.Ints {
			d.Values = append(d.Values, strconv.FormatInt(v, 10))
		}
	case tensors.Float64:
		d.DType = "F64"
		for _, v := range t.Float64s() {
			d.Bits, d.Values = append(d.Bits, math.Float64bits(v)), append(d.Values, text(v))
		}
	default:
		conv := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
		switch t.DType() {
		case tensors.Float32:
			d.DType = "F32"
		case tensors.BFloat16:
			d.DType, conv = "BF16", func(f float32) uint64 { return uint64(half.F32ToBF16(f)) }
		case tensors.Float16:
			d.DType, conv = "F16", func(f float32) uint64 { return uint64(half.F32ToF16(f)) }
		}
		for _, v := range t.Float32s() {
			d.Bits, d.Values = append(d.Bits, conv(v)), append(d.Values, text(float64(v)))
		}
	}
	if d.Values == nil {
		d.Values = []string{}
	}
	return d
}

func writeInterop(t *testing.T, path string, sd map[string]*tensors.Tensor, md map[string]string) {
	t.Helper()
	f := interopFile{Metadata: md, Tensors: map[string]interopTensor{}}
	for name, tensor := range sd {
		f.Tensors[name] = describeInterop(tensor)
	}
	raw, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameValues compares values written as text by either side as numbers:
// NaN equals NaN, -0 differs from 0.
func sameValues(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, err1 := strconv.ParseFloat(a[i], 64)
		y, err2 := strconv.ParseFloat(b[i], 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if !(x == y && math.Signbit(x) == math.Signbit(y)) && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
