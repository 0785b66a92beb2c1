package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
)

// Delimiter separates routing identities from the signed part of a message.
const Delimiter = "<IDS|MSG>"

// Errors returned by Decode; callers log and drop such messages.
var (
	// ErrNoDelimiter means the frames contain no "<IDS|MSG>" delimiter.
	ErrNoDelimiter = errors.New("no <IDS|MSG> delimiter")
	// ErrShort means fewer than the five frames that follow the delimiter.
	ErrShort = errors.New("fewer than 5 frames after the delimiter")
	// ErrSignature means the signature is missing or does not match.
	ErrSignature = errors.New("bad or missing HMAC signature")
)

// Codec signs, verifies, encodes and decodes messages with one key.
// An empty key disables signing and verification, as the spec says.
// A Codec is safe for concurrent use.
type Codec struct {
	key []byte
}

// NewCodec returns a Codec that signs with HMAC-SHA256 under key.
func NewCodec(key []byte) *Codec {
	return &Codec{key: append([]byte(nil), key...)}
}

// Sign returns the hex HMAC-SHA256 signature of the given frames ("" when the key is empty).
func (c *Codec) Sign(parts ...[]byte) string {
	if len(c.key) == 0 {
		return ""
	}
	return hex.EncodeToString(c.mac(parts))
}

func (c *Codec) mac(parts [][]byte) []byte {
	var h hash.Hash = hmac.New(sha256.New, c.key)
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// verify checks sig against the frames in constant time.
func (c *Codec) verify(sig []byte, parts [][]byte) bool {
	if len(c.key) == 0 {
		return true
	}
	want := c.mac(parts)
	got := make([]byte, hex.DecodedLen(len(sig)))
	n, err := hex.Decode(got, sig)
	if err != nil || n != len(want) {
		return false
	}
	return hmac.Equal(got[:n], want)
}

// Encode returns the multipart frames of m, signed.
func (c *Codec) Encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, fmt.Errorf("encode %s header: %w", m.Header.MsgType, err)
	}
	parent := []byte("{}")
	if m.Parent != nil {
		if parent, err = json.Marshal(m.Parent); err != nil {
			return nil, fmt.Errorf("encode %s parent header: %w", m.Header.MsgType, err)
		}
	}
	meta := []byte("{}")
	if len(m.Metadata) > 0 {
		if meta, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("encode %s metadata: %w", m.Header.MsgType, err)
		}
	}
	content := []byte(m.Content)
	if len(content) == 0 {
		content = []byte("{}")
	}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(Delimiter), []byte(c.Sign(header, parent, meta, content)),
		header, parent, meta, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// Decode parses and verifies multipart frames. It returns ErrNoDelimiter,
// ErrShort or ErrSignature (wrapped) for malformed or forged input, and a JSON
// error for unparsable header, parent header, metadata or content.
func (c *Codec) Decode(frames [][]byte) (*Message, error) {
	i := 0
	for i < len(frames) && !bytes.Equal(frames[i], []byte(Delimiter)) {
		i++
	}
	if i == len(frames) {
		return nil, ErrNoDelimiter
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("%w: got %d", ErrShort, len(rest))
	}
	sig, signed := rest[0], rest[1:5]
	if !c.verify(sig, signed) {
		return nil, ErrSignature
	}
	m := &Message{Identities: frames[:i:i]}
	if err := json.Unmarshal(signed[0], &m.Header); err != nil {
		return nil, fmt.Errorf("decode header: %w", err)
	}
	if m.Header.MsgType == "" {
		return nil, errors.New("decode header: msg_type is missing")
	}
	var parent Header
	if err := json.Unmarshal(signed[1], &parent); err != nil {
		return nil, fmt.Errorf("decode parent header: %w", err)
	}
	if parent != (Header{}) {
		m.Parent = &parent
	}
	if err := json.Unmarshal(signed[2], &m.Metadata); err != nil {
		return nil, fmt.Errorf("decode metadata: %w", err)
	}
	if !json.Valid(signed[3]) {
		return nil, errors.New("decode content: invalid JSON")
	}
	m.Content = json.RawMessage(signed[3])
	if len(rest) > 5 {
		m.Buffers = rest[5:]
	}
	return m, nil
}
