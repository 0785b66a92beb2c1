package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/google/uuid"
)

// ProtocolVersion is the Jupyter messaging protocol version this package speaks.
const ProtocolVersion = "5.3"

// Header is a Jupyter message header (also used for the parent header).
type Header struct {
	MsgID    string `json:"msg_id"`
	Username string `json:"username"`
	Session  string `json:"session"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one decoded Jupyter message.
type Message struct {
	// Identities are the ZeroMQ routing frames before the delimiter; replies on
	// ROUTER sockets must carry the request's identities.
	Identities [][]byte
	Header     Header
	// Parent is nil for a message without a parent (it encodes as {}).
	Parent   *Header
	Metadata map[string]any
	// Content is the raw JSON content; use Unmarshal to read it into a struct.
	Content json.RawMessage
	Buffers [][]byte
}

// Unmarshal decodes the message content into v, with a message-type-specific error.
func (m *Message) Unmarshal(v any) error {
	if len(m.Content) == 0 {
		return fmt.Errorf("%s: empty content", m.Header.MsgType)
	}
	if err := json.Unmarshal(m.Content, v); err != nil {
		return fmt.Errorf("%s content: %w", m.Header.MsgType, err)
	}
	return nil
}

// dateLayout is RFC 3339 with microseconds, the form jupyter_client writes and parses.
const dateLayout = "2006-01-02T15:04:05.000000Z07:00"

// Now formats t as a Jupyter header date (RFC 3339, UTC, microseconds).
func Now(t time.Time) string { return t.UTC().Format(dateLayout) }

// NewHeader returns a fresh header for a message of msgType in session.
func NewHeader(msgType, session string) Header {
	return Header{
		MsgID:    uuid.NewString(),
		Username: username(),
		Session:  session,
		Date:     Now(time.Now()),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

func username() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "kernel"
}

// NewMessage builds a message of msgType in session with parent as its parent
// (nil for none); content is marshalled to JSON now.
func NewMessage(msgType, session string, parent *Header, content any) (*Message, error) {
	raw, err := marshalContent(content)
	if err != nil {
		return nil, fmt.Errorf("marshal %s content: %w", msgType, err)
	}
	return &Message{
		Header:   NewHeader(msgType, session),
		Parent:   parent,
		Metadata: map[string]any{},
		Content:  raw,
	}, nil
}

// marshalContent encodes content as JSON without HTML escaping, as Python's
// json.dumps does: escaping writes each of <, > and & as six bytes, so a
// cell or an HTML output full of them would cross the wire six times larger.
func marshalContent(content any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(content); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// NewReply builds the reply msgType to req: same routing identities, req's
// header as parent, and session taken from session (the kernel's own).
func NewReply(req *Message, msgType, session string, content any) (*Message, error) {
	m, err := NewMessage(msgType, session, &req.Header, content)
	if err != nil {
		return nil, err
	}
	m.Identities = req.Identities
	return m, nil
}
