package idx

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/goaccel/goaccel/internal/readn"
)

// File is a decoded IDX file of unsigned bytes.
type File struct {
	Dims []int  // e.g. [60000 28 28] for images, [60000] for labels
	Data []byte // row-major elements
}

// maxDeflateRatio bounds how much a deflate stream can expand: at best 258 bytes from one
// 2-bit-ish code, 1032:1 (zlib's technical notes); a gzip file of n bytes cannot hold more.
const maxDeflateRatio = 1032

// Read decodes an IDX file of unsigned bytes from r, transparently gunzipping it when it starts
// with the gzip magic number. When r knows how many bytes are left (an *os.File, a
// *bytes.Reader), the element count in the header is checked against that first.
func Read(r io.Reader) (*File, error) {
	left, known := remaining(r)
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("idx: gzip: %w", err)
		}
		defer zr.Close()
		limit, what := int64(-1), ""
		if known {
			limit = left * maxDeflateRatio
			what = fmt.Sprintf("a %d-byte gzip file holds at most %d", left, limit)
		}
		f, err := readRaw(zr, limit, what)
		if err != nil {
			return nil, err
		}
		// Reading to the end verifies the gzip checksum and length.
		if err := expectEnd(zr); err != nil {
			return nil, fmt.Errorf("idx: gzip: %w", err)
		}
		return f, nil
	}
	limit, what := int64(-1), ""
	if known {
		limit, what = left, fmt.Sprintf("the file has %d", left)
	}
	f, err := readRaw(br, limit, what)
	if err != nil {
		return nil, err
	}
	if err := expectEnd(br); err != nil {
		return nil, err
	}
	return f, nil
}

// remaining reports how many bytes r has left, when r can tell.
func remaining(r io.Reader) (int64, bool) {
	switch v := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader
		return int64(v.Len()), true
	case *os.File:
		st, err := v.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return 0, false
		}
		pos, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		return st.Size() - pos, true
	}
	return 0, false
}

// expectEnd reads r to its end (a gzip reader checks its checksum there) and fails if anything
// is left.
func expectEnd(r io.Reader) error {
	n, err := io.Copy(io.Discard, r)
	if err != nil {
		if errors.Is(err, gzip.ErrChecksum) {
			return fmt.Errorf("the data does not match its checksum (corrupt file): %w", err)
		}
		return err
	}
	if n > 0 {
		return fmt.Errorf("%d bytes follow the elements (not an IDX file of the shape its header gives)", n)
	}
	return nil
}

// readRaw decodes an uncompressed IDX stream. limit, when not negative, is the most bytes r can
// hold, which what describes for errors.
func readRaw(r io.Reader, limit int64, what string) (*File, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, fmt.Errorf("idx: read magic number: %w", err)
	}
	if head[0] != 0 || head[1] != 0 {
		return nil, fmt.Errorf("idx: bad magic number % x (not an IDX file)", head)
	}
	if head[2] != 0x08 {
		return nil, fmt.Errorf("idx: element type %#02x is not supported (only 0x08, unsigned byte)", head[2])
	}
	nd := int(head[3])
	if nd == 0 || nd > 4 {
		return nil, fmt.Errorf("idx: %d dimensions is not supported (1 to 4)", nd)
	}
	dims := make([]int, nd)
	total := 1
	for i := range dims {
		var d uint32
		if err := binary.Read(r, binary.BigEndian, &d); err != nil {
			return nil, fmt.Errorf("idx: read dimension %d: %w", i, err)
		}
		if d > 1<<28 {
			return nil, fmt.Errorf("idx: dimension %d is %d, too large", i, d)
		}
		dims[i] = int(d)
		total *= int(d)
		if total > 1<<31 {
			return nil, fmt.Errorf("idx: %v elements is too many", dims)
		}
	}
	if need := int64(4+4*nd) + int64(total); limit >= 0 && need > limit {
		return nil, fmt.Errorf("idx: the header gives shape %v, %d bytes with the header, but %s (truncated or corrupt file)", dims, need, what)
	}
	// Without a known size the elements are allocated as they arrive.
	data, err := readn.Full(r, total)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("idx: read %d elements of shape %v: got %d: %w", total, dims, len(data), err)
	}
	return &File{Dims: dims, Data: data}, nil
}

// Encode writes f as an uncompressed IDX file (used by tests to build small fixtures).
func Encode(f *File) []byte {
	var b bytes.Buffer
	b.Write([]byte{0, 0, 0x08, byte(len(f.Dims))})
	for _, d := range f.Dims {
		_ = binary.Write(&b, binary.BigEndian, uint32(d))
	}
	b.Write(f.Data)
	return b.Bytes()
}
