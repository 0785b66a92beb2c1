package safetensors

import (
	"bytes"
	"math/big"
	"reflect"
	"testing"
)

// FuzzDecode feeds Decode arbitrary bytes (the seed corpus in
// testdata/fuzz/FuzzDecode runs with every `go test`; `go test -fuzz
// FuzzDecode` explores further). Decode must never panic, and whatever it
// accepts must be consistent: each tensor's data exactly fills its shape,
// computed without overflow, and the entries encode and decode again to
// the same tensors.
func FuzzDecode(f *testing.F) {
	var valid bytes.Buffer
	if err := Encode(&valid, []Entry{
		{Name: "w", DType: "F32", Shape: []int{2, 2}, Data: make([]byte, 16)},
		{Name: "b", DType: "BF16", Shape: []int{3}, Data: make([]byte, 6)},
		{Name: "s", DType: "I64", Shape: []int{}, Data: make([]byte, 8)},
	}, map[string]string{"format": "pt"}); err != nil {
		f.Fatal(err)
	}
	f.Add(valid.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, md, err := Decode(b)
		if err != nil {
			return
		}
		for _, e := range entries {
			n := big.NewInt(int64(DTypeSize(e.DType)))
			for _, d := range e.Shape {
				n.Mul(n, big.NewInt(int64(d)))
			}
			if !n.IsInt64() || n.Int64() != int64(len(e.Data)) {
				t.Fatalf("tensor %q: shape %v of %s needs %v bytes but Decode gave it %d", e.Name, e.Shape, e.DType, n, len(e.Data))
			}
		}
		var again bytes.Buffer
		if err := Encode(&again, entries, md); err != nil {
			t.Fatalf("Decode accepted entries that Encode refuses: %v", err)
		}
		back, _, err := Decode(again.Bytes())
		if err != nil {
			t.Fatalf("re-encoded file does not decode: %v", err)
		}
		byName := map[string]Entry{}
		for _, e := range back {
			byName[e.Name] = e
		}
		for _, e := range entries {
			got := byName[e.Name]
			if got.DType != e.DType || !reflect.DeepEqual(got.Shape, e.Shape) || !bytes.Equal(got.Data, e.Data) {
				t.Fatalf("tensor %q changed in a round trip", e.Name)
			}
		}
	})
}
