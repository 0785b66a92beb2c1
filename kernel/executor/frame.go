package executor

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/goaccel/goaccel/internal/readn"
)

// Requests and events travel as frames: the length of the JSON body as a
// big-endian uint64, then the body. Unlike JSON lines, a frame has no size
// limit, and the body is encoded without HTML escaping, so a cell of '<'
// characters costs one byte each rather than six ("\u003c").

const frameHeaderLen = 8

// frameWriter writes frames to w; it is safe for concurrent use.
type frameWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

func newFrameWriter(w io.Writer) *frameWriter {
	fw := &frameWriter{w: w}
	fw.enc = json.NewEncoder(&fw.buf)
	fw.enc.SetEscapeHTML(false)
	return fw
}

// write encodes v and writes it as one frame.
func (fw *frameWriter) write(v any) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	defer func() {
		// Do not keep a huge cell's buffer alive between frames.
		if fw.buf.Cap() > 4<<20 {
			fw.buf = bytes.Buffer{}
		}
	}()
	fw.buf.Reset()
	fw.buf.Write(make([]byte, frameHeaderLen))
	if err := fw.enc.Encode(v); err != nil {
		return err
	}
	b := fw.buf.Bytes()
	binary.BigEndian.PutUint64(b, uint64(len(b)-frameHeaderLen))
	_, err := fw.w.Write(b)
	return err
}

// readFrame reads the next frame's body from r. It returns io.EOF when r
// ends cleanly between frames. The body is allocated as its bytes arrive.
func readFrame(r io.Reader) ([]byte, error) {
	var hdr [frameHeaderLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("truncated frame header: %w", err)
		}
		return nil, err
	}
	size := binary.BigEndian.Uint64(hdr[:])
	if size > math.MaxInt {
		return nil, fmt.Errorf("frame header announces %d bytes (a corrupt pipe?)", size)
	}
	body, err := readn.Full(r, int(size))
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("frame of %d bytes cut after %d: %w", size, len(body), err)
	}
	return body, nil
}
