package safetensors

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func TestEncodeLayoutMatchesReference(t *testing.T) {
	entries := []Entry{
		{Name: "b", DType: "F16", Shape: []int{1}, Data: []byte{0, 0x3c}},
		{Name: "a", DType: "F32", Shape: []int{2}, Data: make([]byte, 8)},
		{Name: "c", DType: "I64", Shape: []int{}, Data: make([]byte, 8)},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, entries, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	hs := binary.LittleEndian.Uint64(b)
	if hs%8 != 0 {
		t.Errorf("header size %d is not a multiple of 8", hs)
	}
	header := string(b[8 : 8+hs])
	want := `{"__metadata__":{"format":"pt"},"c":{"dtype":"I64","shape":[],"data_offsets":[0,8]},` +
		`"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},"b":{"dtype":"F16","shape":[1],"data_offsets":[16,18]}}`
	if strings.TrimRight(header, " ") != want {
		t.Errorf("header\n got %s\nwant %s", header, want)
	}
	if len(header) != len(want)+(8-len(want)%8)%8 {
		t.Errorf("padding: header %d bytes for %d bytes of JSON", len(header), len(want))
	}
	if got := len(b) - 8 - int(hs); got != 18 {
		t.Errorf("data section is %d bytes, want 18", got)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	entries := []Entry{
		{Name: "w", DType: "F32", Shape: []int{2, 2}, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
		{Name: "h", DType: "BF16", Shape: []int{3}, Data: []byte{1, 2, 3, 4, 5, 6}},
	}
	var buf bytes.Buffer
	if err := Encode(&buf, entries, nil); err != nil {
		t.Fatal(err)
	}
	got, md, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if md != nil {
		t.Errorf("metadata = %v, want none", md)
	}
	if len(got) != 2 || got[0].Name != "w" || got[1].Name != "h" {
		t.Fatalf("entries = %+v", got)
	}
	if !bytes.Equal(got[1].Data, entries[1].Data) || got[1].Shape[0] != 3 || got[1].DType != "BF16" {
		t.Errorf("h = %+v", got[1])
	}
}

func TestDecodeRejectsBadFiles(t *testing.T) {
	mk := func(header string, data int) []byte {
		b := make([]byte, 8, 8+len(header)+data)
		binary.LittleEndian.PutUint64(b, uint64(len(header)))
		b = append(b, header...)
		return append(b, make([]byte, data)...)
	}
	huge := make([]byte, 8)
	binary.LittleEndian.PutUint64(huge, math.MaxUint64)
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"short", []byte{1, 2}, "too short"},
		{"huge header", huge, "exceeds"},
		{"truncated header", mk(`{"a":{}}`, 0)[:10], "larger than"},
		{"not json", mk(`nope`, 0), "not a JSON object"},
		{"unknown dtype", mk(`{"a":{"dtype":"X9","shape":[1],"data_offsets":[0,1]}}`, 1), "unknown dtype"},
		{"size mismatch", mk(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, 4), "needs 8"},
		{"gap", mk(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, 2), "expected 0"},
		{"truncated data", mk(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, 4), "truncated"},
		{"trailing data", mk(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}`, 3), "cover 1"},
		{"bad metadata", mk(`{"__metadata__":{"a":1}}`, 0), "__metadata__"},
		{"extra field", mk(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}}`, 1), "bad header entry"},
		// Shapes whose byte count wraps around 2^64 to the data present.
		{"overflow to 4 bytes", mk(`{"a":{"dtype":"F32","shape":[4611686018427387905],"data_offsets":[0,4]}}`, 4), "does not fit in 64 bits"},
		{"overflow to 0 bytes", mk(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}}`, 0), "more elements than 64 bits"},
		{"overflow before a zero", mk(`{"a":{"dtype":"U8","shape":[4294967296,4294967296,0],"data_offsets":[0,0]}}`, 0), "more elements than 64 bits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Decode(c.file)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Decode error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestEncodeRejectsBadEntries(t *testing.T) {
	cases := []struct {
		name string
		e    []Entry
		want string
	}{
		{"size", []Entry{{Name: "a", DType: "F32", Shape: []int{3}, Data: make([]byte, 8)}}, "want 12"},
		{"dtype", []Entry{{Name: "a", DType: "Q4", Shape: []int{1}, Data: make([]byte, 1)}}, "unknown dtype"},
		{"dup", []Entry{{Name: "a", DType: "U8", Data: []byte{1}}, {Name: "a", DType: "U8", Data: []byte{1}}}, "duplicate"},
		{"reserved", []Entry{{Name: "__metadata__", DType: "U8", Data: []byte{1}}}, "invalid tensor name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Encode(&bytes.Buffer{}, c.e, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Encode error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestHeaderDoesNotHTMLEscapeNames(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, []Entry{{Name: "a<b>&c", DType: "U8", Shape: []int{1}, Data: []byte{1}}}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"a<b>&c"`) {
		t.Errorf("header %q escapes the name", buf.String())
	}
}
