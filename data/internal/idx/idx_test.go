package idx

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
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
		{"truncated", Encode(&File{Dims: []int{4}, Data: []byte{1, 2, 3, 4}})[:10], "the file has 10"},
		{"trailing data", append(Encode(&File{Dims: []int{4}, Data: []byte{1, 2, 3, 4}}), 9, 9), "2 bytes follow"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func gzipped(b []byte) []byte {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(b)
	zw.Close()
	return gz.Bytes()
}

// onlyReader hides everything but Read, so Read cannot learn the size.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// A gzip file whose CRC does not match its data is corrupt, not MNIST.
func TestReadRejectsABadGzipChecksum(t *testing.T) {
	gz := gzipped(Encode(&File{Dims: []int{3, 4}, Data: bytes.Repeat([]byte{7}, 12)}))
	gz[len(gz)-8] ^= 0xff // the CRC-32 in the trailer
	for name, r := range map[string]io.Reader{"sized": bytes.NewReader(gz), "stream": onlyReader{bytes.NewReader(gz)}} {
		if _, err := Read(r); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("%s: Read = %v; want a checksum error", name, err)
		}
	}
}

// A 16-byte header claiming 2^31 elements must not make Read allocate 2 GB:
// the size is checked against the file first, and without a known size the
// elements are allocated as they arrive.
func TestHugeHeaderDoesNotAllocateBeforeTheData(t *testing.T) {
	head := []byte{0, 0, 8, 2, 0, 0, 0x80, 0, 0, 1, 0, 0} // shape [32768 65536]
	file := filepath.Join(t.TempDir(), "evil-idx3-ubyte")
	if err := os.WriteFile(file, head, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() io.Reader {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	cases := []struct {
		name string
		r    func() io.Reader
		want string
	}{
		{"plain bytes", func() io.Reader { return bytes.NewReader(head) }, "the file has 12"},
		{"plain file", open, "the file has 12"},
		{"gzip bytes", func() io.Reader { return bytes.NewReader(gzipped(head)) }, "gzip file holds at most"},
		{"plain stream", func() io.Reader { return onlyReader{bytes.NewReader(head)} }, "unexpected EOF"},
		{"gzip stream", func() io.Reader { return onlyReader{bytes.NewReader(gzipped(head))} }, "unexpected EOF"},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Read(c.r())
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Read = %v; want an error containing %q", c.name, err, c.want)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("%s: Read allocated %d MiB for a 12-byte file", c.name, grew>>20)
		}
	}
}

func TestReadFromAFile(t *testing.T) {
	want := &File{Dims: []int{2, 3}, Data: []byte{1, 2, 3, 4, 5, 6}}
	for name, b := range map[string][]byte{"plain": Encode(want), "gzip": gzipped(Encode(want))} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(f)
		f.Close()
		if err != nil || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("%s: Read = %+v, %v", name, got, err)
		}
	}
}
