package nn

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every file of the safetensors fuzz corpus (hostile shapes, offsets and
// headers) gives DecodeSafetensors an error or tensors, never a panic; the
// shapes whose byte count used to wrap around 2^64 are errors.
func TestDecodeSafetensorsSurvivesHostileFiles(t *testing.T) {
	mk := func(header string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		return append(append(b, header...), make([]byte, data)...)
	}
	for name, file := range map[string][]byte{
		"wraps to 4 bytes": mk(`{"a":{"dtype":"F32","shape":[4611686018427387905],"data_offsets":[0,4]}}`, 4),
		"wraps to 0 bytes": mk(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}}`, 0),
	} {
		if _, _, err := DecodeSafetensors(file); err == nil || !strings.Contains(err.Error(), "64 bits") {
			t.Errorf("%s: DecodeSafetensors = %v; want an overflow error", name, err)
		}
	}
	corpus, _ := filepath.Glob("internal/safetensors/testdata/fuzz/FuzzDecode/*")
	if len(corpus) == 0 {
		t.Fatal("no fuzz corpus found")
	}
	for _, path := range corpus {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		file, err := unquoteCorpus(b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: DecodeSafetensors panicked: %v", filepath.Base(path), r)
				}
			}()
			DecodeSafetensors(file)
		}()
	}
}

// unquoteCorpus reads a one-value []byte file of Go's fuzz corpus format.
func unquoteCorpus(b []byte) ([]byte, error) {
	lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", 2)
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		return nil, fmt.Errorf("not a fuzz corpus file")
	}
	q, ok1 := strings.CutPrefix(lines[1], "[]byte(")
	q, ok2 := strings.CutSuffix(q, ")")
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("not a []byte value: %s", lines[1])
	}
	s, err := strconv.Unquote(q)
	return []byte(s), err
}
