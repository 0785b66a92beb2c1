package datasets

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// formatVersion enters every fingerprint: changing how datasets are read, transformed or stored
// changes it, so that no cache file written by an older goaccel is read back.
const formatVersion = "goaccel-datasets-1"

// hasher writes values unambiguously (each with its length) into a SHA-256.
type hasher struct{ h hash.Hash }

func newHasher(op string) *hasher {
	h := &hasher{h: sha256.New()}
	h.str(formatVersion)
	h.str(op)
	return h
}

func (h *hasher) int(v int64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	h.h.Write(b[:])
}

func (h *hasher) str(s string) {
	h.int(int64(len(s)))
	h.h.Write([]byte(s))
}

func (h *hasher) bytes(b []byte) {
	h.int(int64(len(b)))
	h.h.Write(b)
}

func (h *hasher) strs(s []string) {
	h.int(int64(len(s)))
	for _, x := range s {
		h.str(x)
	}
}

func (h *hasher) ints(v []int) {
	h.int(int64(len(v)))
	for _, x := range v {
		h.int(int64(x))
	}
}

func (h *hasher) bool(b bool) {
	if b {
		h.int(1)
	} else {
		h.int(0)
	}
}

// sum returns the first 16 hex digits, the length of datasets' fingerprints.
func (h *hasher) sum() string { return hex.EncodeToString(h.h.Sum(nil))[:16] }

// derive returns the fingerprint of a dataset made from parent by op with args (strings, ints,
// []int, []string, bools).
func derive(parent, op string, args ...any) string {
	h := newHasher(op)
	h.str(parent)
	for _, a := range args {
		switch a := a.(type) {
		case string:
			h.str(a)
		case int:
			h.int(int64(a))
		case uint64:
			h.int(int64(a))
		case float64:
			h.int(int64(math.Float64bits(a)))
		case bool:
			h.bool(a)
		case []int:
			h.ints(a)
		case []string:
			h.strs(a)
		default:
			panic("datasets: derive: unhashable argument") // a programming error in this package
		}
	}
	return h.sum()
}

// randomFingerprint names a dataset whose history cannot be hashed (a Map without a CacheKey),
// as datasets does for a function it cannot pickle: nothing derived from it is ever cached.
func randomFingerprint() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// contentFingerprint hashes columns by value (datasets made in memory).
func contentFingerprint(cols []*column) string {
	h := newHasher("columns")
	for _, c := range cols {
		h.str(c.Name)
		h.int(int64(c.Kind))
		h.strs(c.LabelNames)
		n := c.len()
		h.int(int64(n))
		for i := range n {
			h.bool(c.isNull(i))
			switch c.Kind {
			case KindString:
				h.str(c.Strings[i])
			case KindInt:
				h.int(c.Ints[i])
			case KindFloat:
				h.int(int64(math.Float64bits(c.Floats[i])))
			case KindBool:
				h.bool(c.Bools[i])
			case KindIntList:
				h.int(int64(len(c.IntLists[i])))
				for _, x := range c.IntLists[i] {
					h.int(x)
				}
			case KindFloatList:
				h.int(int64(len(c.FloatLists[i])))
				for _, x := range c.FloatLists[i] {
					h.int(int64(math.Float64bits(x)))
				}
			}
		}
	}
	return h.sum()
}
