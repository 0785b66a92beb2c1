// Package idx reads the IDX files MNIST is distributed in (optionally gzip-compressed): a big-endian
// magic number whose low byte is the number of dimensions and whose third byte is the element type
// (0x08 = unsigned byte), one big-endian uint32 per dimension, then the elements.
package idx

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
)

// File is a decoded IDX file of unsigned bytes.
type File struct {
	Dims []int  // e.g. [60000 28 28] for images, [60000] for labels
	Data []byte // row-major elements
}

// Read decodes an IDX file of unsigned bytes from r, transparently gunzipping it when it starts
// with the gzip magic number.
func Read(r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("idx: gzip: %w", err)
		}
		defer zr.Close()
		return readRaw(zr)
	}
	return readRaw(br)
}

func readRaw(r io.Reader) (*File, error) {
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
	data := make([]byte, total)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("idx: read %d elements of shape %v: %w", total, dims, err)
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
