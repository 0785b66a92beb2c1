package nn

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

type refFile struct {
	Metadata map[string]string
	Tensors  map[string]struct {
		DType  string
		Shape  []int
		Values []float64
	}
}

func loadRef(t *testing.T) *refFile {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var r refFile
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

var stDTypes = map[string]tensors.DType{"F32": tensors.Float32, "F64": tensors.Float64,
	"BF16": tensors.BFloat16, "F16": tensors.Float16, "I64": tensors.Int64}

// TestLoadSafetensorsWrittenByReference reads the file gen_nn.py wrote with PyTorch.
func TestLoadSafetensorsWrittenByReference(t *testing.T) {
	ref := loadRef(t)
	sd, err := LoadSafetensors("testdata/reference.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	md, err := LoadSafetensorsMetadata("testdata/reference.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(md, ref.Metadata) {
		t.Errorf("metadata %v, want %v", md, ref.Metadata)
	}
	if len(sd) != len(ref.Tensors) {
		t.Errorf("%d tensors, want %d", len(sd), len(ref.Tensors))
	}
	for name, want := range ref.Tensors {
		got := sd[name]
		if got == nil {
			t.Errorf("%s missing", name)
			continue
		}
		if got.DType() != stDTypes[want.DType] || !reflect.DeepEqual(got.Shape(), want.Shape) && !(len(want.Shape) == 0 && got.Dim() == 0) {
			t.Errorf("%s: %v %v, want %s %v", name, got.DType(), got.Shape(), want.DType, want.Shape)
			continue
		}
		var vals []float64
		if got.DType() == tensors.Int64 {
			for _, v := range got.Int64s() {
				vals = append(vals, float64(v))
			}
		} else {
			vals = got.Float64s()
		}
		if len(vals) != len(want.Values) {
			t.Errorf("%s: %d values, want %d", name, len(vals), len(want.Values))
			continue
		}
		for i := range vals {
			if vals[i] != want.Values[i] {
				t.Errorf("%s[%d] = %v, want %v", name, i, vals[i], want.Values[i])
			}
		}
	}
}

// TestSaveSafetensorsMatchesReferenceBytes writes what the reference file holds and expects the
// same bytes, then (when Debian's python3 with torch is present) has an independent reader check it.
func TestSaveSafetensorsMatchesReferenceBytes(t *testing.T) {
	want, err := os.ReadFile("testdata/reference.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	sd, md, err := DecodeSafetensors(want)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := SaveSafetensors(path, sd, md); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("written file differs from the reference:\n got %q\nwant %q", got[:min(len(got), 200)], want[:min(len(want), 200)])
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if testing.Short() {
		t.Log("-short: checked against the committed bytes only (the python reader takes seconds to start)")
		return
	}
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Log("no /usr/bin/python3: checked against the committed bytes only")
		return
	}
	out, err := exec.Command(py, "testdata/check_safetensors.py", path, "testdata/reference.json").CombinedOutput()
	if err != nil && strings.Contains(string(out), "No module named 'torch'") {
		t.Log("python3 without torch: checked against the committed bytes only")
		return
	}
	if err != nil {
		t.Fatalf("python reader rejected the Go-written file: %v\n%s", err, out)
	}
}

func TestSafetensorsRoundTripThroughWriterAndBytes(t *testing.T) {
	sd := map[string]*tensors.Tensor{
		"a":   tensors.New([]float32{1, 2, 3, 4}, 2, 2),
		"b.c": tensors.New([]float32{0.1, 1e30}, 2).AsType(tensors.BFloat16),
		"i":   tensors.FromInt64([]int64{-1, 1 << 50}, 2),
	}
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, sd, nil); err != nil {
		t.Fatal(err)
	}
	back, md, err := ReadSafetensors(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if md != nil {
		t.Errorf("metadata %v, want none", md)
	}
	for k, v := range sd {
		if back[k].DType() != v.DType() || !reflect.DeepEqual(back[k].Float64s(), v.Float64s()) {
			t.Errorf("%s: %v %v, want %v %v", k, back[k].DType(), back[k].Float64s(), v.DType(), v.Float64s())
		}
	}
}

func TestSaveSafetensorsKeepsOldFileOnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := SaveSafetensors(path, map[string]*tensors.Tensor{"x": nil}, nil)
	if err == nil || !strings.Contains(err.Error(), `"x" is nil`) {
		t.Fatalf("error %v, want one naming the nil tensor", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("file is now %q, want the old content", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestLoadSafetensorsErrorsNameTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.safetensors")
	os.WriteFile(path, []byte{1, 2, 3}, 0o644)
	_, err := LoadSafetensors(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "too short") {
		t.Errorf("error %v, want one naming %s and the problem", err, path)
	}
}
