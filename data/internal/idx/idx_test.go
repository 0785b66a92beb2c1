package idx

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

func TestReadPlainAndGzip(t *testing.T) {
	want := &File{Dims: []int{2, 2, 3}, Data: []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 255}}
	raw := Encode(want)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	for name, b := range map[string][]byte{"plain": raw, "gzip": gz.Bytes()} {
		got, err := Read(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Dims) != 3 || got.Dims[0] != 2 || got.Dims[2] != 3 || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("%s: got %+v", name, got)
		}
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "magic"},
		{"magic", []byte{1, 2, 8, 1}, "bad magic"},
		{"float type", []byte{0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0}, "element type"},
		{"no dims", []byte{0, 0, 8, 0}, "dimensions"},
		{"truncated", Encode(&File{Dims: []int{4}, Data: []byte{1, 2, 3, 4}})[:10], "read 4 elements"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
