package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strconv"
)

// MaxHeaderSize is the largest header accepted, the reference implementation's limit.
const MaxHeaderSize = 100_000_000

// Entry is one named tensor: its dtype name ("F32", "BF16", ...), shape, and raw little-endian bytes.
type Entry struct {
	Name  string
	DType string
	Shape []int
	Data  []byte
}

// dtypeSizes lists the dtypes this package understands and their element sizes in bytes.
var dtypeSizes = map[string]int{
	"F64": 8, "I64": 8, "U64": 8,
	"F32": 4, "I32": 4, "U32": 4,
	"F16": 2, "BF16": 2, "I16": 2, "U16": 2,
	"I8": 1, "U8": 1, "BOOL": 1, "F8_E4M3": 1, "F8_E5M2": 1,
}

// dtypeRank is the reference implementation's Dtype enum order; files list tensors by descending rank.
var dtypeRank = map[string]int{
	"BOOL": 0, "U8": 1, "I8": 2, "F8_E5M2": 3, "F8_E4M3": 4, "I16": 5, "U16": 6, "F16": 7, "BF16": 8,
	"I32": 9, "U32": 10, "F32": 11, "F64": 12, "I64": 13, "U64": 14,
}

// DTypeSize returns the element size in bytes of a safetensors dtype name, or 0 if it is unknown.
func DTypeSize(dtype string) int { return dtypeSizes[dtype] }

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// Encode writes entries and metadata to w in the safetensors layout.
func Encode(w io.Writer, entries []Entry, metadata map[string]string) error {
	es := make([]Entry, len(entries))
	copy(es, entries)
	seen := make(map[string]bool, len(es))
	for _, e := range es {
		if e.Name == "" || e.Name == "__metadata__" {
			return fmt.Errorf("safetensors: invalid tensor name %q", e.Name)
		}
		if seen[e.Name] {
			return fmt.Errorf("safetensors: duplicate tensor name %q", e.Name)
		}
		seen[e.Name] = true
		size := DTypeSize(e.DType)
		if size == 0 {
			return fmt.Errorf("safetensors: tensor %q: unknown dtype %q", e.Name, e.DType)
		}
		for _, s := range e.Shape {
			if s < 0 {
				return fmt.Errorf("safetensors: tensor %q: negative dimension in shape %v", e.Name, e.Shape)
			}
		}
		if want := numel(e.Shape) * size; len(e.Data) != want {
			return fmt.Errorf("safetensors: tensor %q: %d bytes of data for shape %v and dtype %s (want %d)",
				e.Name, len(e.Data), e.Shape, e.DType, want)
		}
	}
	// The reference sorts by descending dtype enum rank (wider types first, so data stays aligned),
	// then by name.
	sort.SliceStable(es, func(i, j int) bool {
		ri, rj := dtypeRank[es[i].DType], dtypeRank[es[j].DType]
		if ri != rj {
			return ri > rj
		}
		return es[i].Name < es[j].Name
	})
	var h bytes.Buffer
	h.WriteByte('{')
	first := true
	if len(metadata) > 0 {
		keys := make([]string, 0, len(metadata))
		for k := range metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h.WriteString(`"__metadata__":{`)
		for i, k := range keys {
			if i > 0 {
				h.WriteByte(',')
			}
			writeJSONString(&h, k)
			h.WriteByte(':')
			writeJSONString(&h, metadata[k])
		}
		h.WriteByte('}')
		first = false
	}
	offset := 0
	for _, e := range es {
		if !first {
			h.WriteByte(',')
		}
		first = false
		writeJSONString(&h, e.Name)
		h.WriteString(`:{"dtype":"`)
		h.WriteString(e.DType)
		h.WriteString(`","shape":[`)
		for i, s := range e.Shape {
			if i > 0 {
				h.WriteByte(',')
			}
			h.WriteString(strconv.Itoa(s))
		}
		h.WriteString(`],"data_offsets":[`)
		h.WriteString(strconv.Itoa(offset))
		h.WriteByte(',')
		offset += len(e.Data)
		h.WriteString(strconv.Itoa(offset))
		h.WriteString("]}")
	}
	h.WriteByte('}')
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(h.Len()))
	if _, err := w.Write(n[:]); err != nil {
		return fmt.Errorf("safetensors: write header size: %w", err)
	}
	if _, err := w.Write(h.Bytes()); err != nil {
		return fmt.Errorf("safetensors: write header: %w", err)
	}
	for _, e := range es {
		if _, err := w.Write(e.Data); err != nil {
			return fmt.Errorf("safetensors: write tensor %q: %w", e.Name, err)
		}
	}
	return nil
}

// writeJSONString writes s as a JSON string the way serde_json does: no HTML escaping of <, >, &.
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes; writing to a bytes.Buffer cannot fail
	b.Truncate(b.Len() - 1) // Encode appends a newline
}

// byteSize returns the bytes a tensor of shape and element size takes, with
// every multiplication checked as the reference implementation does
// (ValidationOverflow): a product that overflows 64 bits, or an int, is an
// error, never a wrapped-around small number.
func byteSize(shape []int, size int) (uint64, error) {
	n := uint64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension in shape %v", shape)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 {
			return 0, fmt.Errorf("shape %v has more elements than 64 bits count", shape)
		}
		n = lo
	}
	hi, lo := bits.Mul64(n, uint64(size))
	if hi != 0 || lo > math.MaxInt {
		return 0, fmt.Errorf("shape %v of %d-byte elements does not fit in 64 bits", shape, size)
	}
	return lo, nil
}

type headerEntry struct {
	DType       string `json:"dtype"`
	Shape       []int  `json:"shape"`
	DataOffsets []int  `json:"data_offsets"`
}

// Decode parses a whole safetensors file held in b. The returned entries' Data alias b; they are
// sorted by data offset. It checks what the reference implementation checks: the header size, that
// the byte ranges are contiguous from 0 and cover the data exactly, and that each range's length
// matches its shape and dtype.
func Decode(b []byte) ([]Entry, map[string]string, error) {
	if len(b) < 8 {
		return nil, nil, fmt.Errorf("safetensors: file is %d bytes, too short for the 8-byte header size", len(b))
	}
	hs := binary.LittleEndian.Uint64(b[:8])
	if hs > MaxHeaderSize {
		return nil, nil, fmt.Errorf("safetensors: header size %d exceeds the %d-byte limit (is this a safetensors file?)", hs, MaxHeaderSize)
	}
	if uint64(len(b)-8) < hs {
		return nil, nil, fmt.Errorf("safetensors: header size %d is larger than the %d bytes that follow (truncated file?)", hs, len(b)-8)
	}
	header := b[8 : 8+hs]
	data := b[8+hs:]
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(header, &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors: header is not a JSON object: %w", err)
	}
	var metadata map[string]string
	entries := make([]Entry, 0, len(raw))
	offsets := make([][2]int, 0, len(raw))
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &metadata); err != nil {
				return nil, nil, fmt.Errorf("safetensors: __metadata__ must map strings to strings: %w", err)
			}
			continue
		}
		var he headerEntry
		dec := json.NewDecoder(bytes.NewReader(msg))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&he); err != nil {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: bad header entry: %w", name, err)
		}
		size := DTypeSize(he.DType)
		if size == 0 {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: unknown dtype %q", name, he.DType)
		}
		if len(he.DataOffsets) != 2 || he.DataOffsets[0] < 0 || he.DataOffsets[1] < he.DataOffsets[0] {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: invalid data_offsets %v", name, he.DataOffsets)
		}
		n, err := byteSize(he.Shape, size)
		if err != nil {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: %w", name, err)
		}
		if got := uint64(he.DataOffsets[1] - he.DataOffsets[0]); got != n {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: data_offsets %v span %d bytes but shape %v of %s needs %d",
				name, he.DataOffsets, got, he.Shape, he.DType, n)
		}
		if he.Shape == nil {
			he.Shape = []int{}
		}
		entries = append(entries, Entry{Name: name, DType: he.DType, Shape: he.Shape})
		offsets = append(offsets, [2]int{he.DataOffsets[0], he.DataOffsets[1]})
	}
	idx := make([]int, len(entries))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool {
		a, c := offsets[idx[i]], offsets[idx[j]]
		if a[0] != c[0] {
			return a[0] < c[0]
		}
		return a[1] < c[1]
	})
	out := make([]Entry, len(entries))
	end := 0
	for k, i := range idx {
		o := offsets[i]
		if o[0] != end {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: data starts at byte %d, expected %d (overlapping or missing data)", entries[i].Name, o[0], end)
		}
		end = o[1]
		if end > len(data) {
			return nil, nil, fmt.Errorf("safetensors: tensor %q: data ends at byte %d but the file has only %d data bytes (truncated file?)", entries[i].Name, end, len(data))
		}
		e := entries[i]
		e.Data = data[o[0]:o[1]:o[1]]
		out[k] = e
	}
	if end != len(data) {
		return nil, nil, fmt.Errorf("safetensors: %d data bytes but the tensors cover %d", len(data), end)
	}
	return out, metadata, nil
}
