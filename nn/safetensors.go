package nn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/nn/internal/safetensors"
	"github.com/goaccel/goaccel/tensors"
)

// SaveSafetensors writes sd to path in the safetensors format with optional string metadata (PyTorch
// writes {"format": "pt"}). Float32, float64, bfloat16, float16 and int64 tensors are stored as F32,
// F64, BF16, F16 and I64. The file is written to a temporary file in the same folder and renamed
// into place, so a crash never leaves a half-written file at path.
func SaveSafetensors(path string, sd map[string]*tensors.Tensor, metadata map[string]string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if err := WriteSafetensors(f, sd, metadata); err != nil {
		f.Close()
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("nn: save safetensors %s: %w", path, err)
	}
	return nil
}

// WriteSafetensors writes sd to w in the safetensors format (see SaveSafetensors).
func WriteSafetensors(w io.Writer, sd map[string]*tensors.Tensor, metadata map[string]string) error {
	entries := make([]safetensors.Entry, 0, len(sd))
	for name, t := range sd {
		if t == nil {
			return fmt.Errorf("tensor %q is nil", name)
		}
		e, err := toEntry(name, t)
		if err != nil {
			return err
		}
		entries = append(entries, e)
	}
	return safetensors.Encode(w, entries, metadata)
}

// EncodeSafetensors returns the safetensors bytes of sd (see SaveSafetensors).
func EncodeSafetensors(sd map[string]*tensors.Tensor, metadata map[string]string) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteSafetensors(&b, sd, metadata); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// LoadSafetensors reads the tensors of a safetensors file (CPU tensors; F32, F64, BF16, F16, I64).
// LoadSafetensorsMetadata returns its metadata.
func LoadSafetensors(path string) (map[string]*tensors.Tensor, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: load safetensors: %w", err)
	}
	sd, _, err := DecodeSafetensors(b)
	if err != nil {
		return nil, fmt.Errorf("nn: load safetensors %s: %w", path, err)
	}
	return sd, nil
}

// LoadSafetensorsMetadata returns the "__metadata__" strings of a safetensors file (nil if none).
func LoadSafetensorsMetadata(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nn: load safetensors metadata: %w", err)
	}
	_, md, err := DecodeSafetensors(b)
	if err != nil {
		return nil, fmt.Errorf("nn: load safetensors %s: %w", path, err)
	}
	return md, nil
}

// ReadSafetensors reads a whole safetensors stream from r and returns its tensors and metadata.
func ReadSafetensors(r io.Reader) (map[string]*tensors.Tensor, map[string]string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("nn: read safetensors: %w", err)
	}
	return DecodeSafetensors(b)
}

// DecodeSafetensors parses safetensors bytes into tensors (copies; b may be reused) and metadata.
func DecodeSafetensors(b []byte) (map[string]*tensors.Tensor, map[string]string, error) {
	entries, md, err := safetensors.Decode(b)
	if err != nil {
		return nil, nil, err
	}
	sd := make(map[string]*tensors.Tensor, len(entries))
	for _, e := range entries {
		t, err := fromEntry(e)
		if err != nil {
			return nil, nil, err
		}
		sd[e.Name] = t
	}
	return sd, md, nil
}

func toEntry(name string, t *tensors.Tensor) (safetensors.Entry, error) {
	e := safetensors.Entry{Name: name, Shape: t.Shape()}
	le := binary.LittleEndian
	switch t.DType() {
	case tensors.Float32:
		e.DType = "F32"
		v := t.Float32s()
		e.Data = make([]byte, 4*len(v))
		for i, x := range v {
			le.PutUint32(e.Data[4*i:], math.Float32bits(x))
		}
	case tensors.Float64:
		e.DType = "F64"
		v := t.Float64s()
		e.Data = make([]byte, 8*len(v))
		for i, x := range v {
			le.PutUint64(e.Data[8*i:], math.Float64bits(x))
		}
	case tensors.BFloat16, tensors.Float16:
		conv := half.F32ToBF16
		e.DType = "BF16"
		if t.DType() == tensors.Float16 {
			conv, e.DType = half.F32ToF16, "F16"
		}
		v := t.Float32s() // exact: every half value is a float32
		e.Data = make([]byte, 2*len(v))
		for i, x := range v {
			le.PutUint16(e.Data[2*i:], conv(x))
		}
	case tensors.Int64:
		e.DType = "I64"
		v := t.Int64s()
		e.Data = make([]byte, 8*len(v))
		for i, x := range v {
			le.PutUint64(e.Data[8*i:], uint64(x))
		}
	default:
		return e, fmt.Errorf("tensor %q: dtype %v cannot be stored in safetensors", name, t.DType())
	}
	return e, nil
}

func fromEntry(e safetensors.Entry) (*tensors.Tensor, error) {
	le := binary.LittleEndian
	n := len(e.Data) / safetensors.DTypeSize(e.DType)
	switch e.DType {
	case "F32":
		v := make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(le.Uint32(e.Data[4*i:]))
		}
		return tensors.New(v, e.Shape...), nil
	case "F64":
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Float64frombits(le.Uint64(e.Data[8*i:]))
		}
		return tensors.NewFloat64(v, e.Shape...), nil
	case "BF16", "F16":
		conv, dt := half.BF16ToF32, tensors.BFloat16
		if e.DType == "F16" {
			conv, dt = half.F16ToF32, tensors.Float16
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = conv(le.Uint16(e.Data[2*i:]))
		}
		return tensors.New(v, e.Shape...).AsType(dt), nil // exact: the values are representable
	case "I64":
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(le.Uint64(e.Data[8*i:]))
		}
		return tensors.FromInt64(v, e.Shape...), nil
	}
	return nil, fmt.Errorf("tensor %q: dtype %s is not supported (goaccel reads F32, F64, BF16, F16, I64)", e.Name, e.DType)
}
