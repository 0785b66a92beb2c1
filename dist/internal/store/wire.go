package store

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/goaccel/goaccel/internal/readn"
)

const purpose = "goaccel-store-v1"

const (
	opSet byte = iota + 1
	opGet
	opAdd
	opWait
	opCheck
	opDelete
	opRegister
	opBye
)

const (
	stOK byte = iota
	stTimeout
	stLost
	stError
)

// maxValue bounds one key or value; it is allocated as its bytes arrive, so
// a length alone reserves nothing.
const maxValue = 1 << 30

func writeBytes(w *bufio.Writer, b []byte) {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(b)))
	w.Write(n[:])
	w.Write(b)
}

func writeInt(w *bufio.Writer, v int64) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(v))
	w.Write(n[:])
}

func readBytes(r *bufio.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	l := int(binary.LittleEndian.Uint32(n[:]))
	if l > maxValue {
		return nil, fmt.Errorf("value of %d bytes exceeds the %d limit", l, maxValue)
	}
	b, err := readn.Full(r, l)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func readInt(r *bufio.Reader) (int64, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(n[:])), nil
}
