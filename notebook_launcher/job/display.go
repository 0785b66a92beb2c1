package job

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// outFrame is a message in transit from a worker to its launcher: a display
// message, or a comm message of one of its widgets.
type outFrame struct {
	Type    string         `json:"type"`
	Content map[string]any `json:"content,omitempty"`
	Comm    *comm.Message  `json:"comm,omitempty"`
}

// frameSink is a worker's display (host.Display) and comm transport: each message
// becomes a frame on stdout, in order with what the worker prints.
type frameSink struct{}

func (frameSink) Send(msgType string, content map[string]any) {
	write(outFrame{Type: msgType, Content: content})
}

// SendComm sends a comm message of the worker's widgets (comm.Transport).
func (frameSink) SendComm(m comm.Message) { write(outFrame{Type: "comm", Comm: &m}) }

func write(f outFrame) {
	b, err := json.Marshal(f)
	if err == nil {
		err = workers.WriteFrame(os.Stdout, b)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goaccel worker: send a %s message: %v\n", f.Type, err)
	}
}

// ParseFrame reads a worker's frame: a display message (msgType
// "display_data", "update_display_data" or "clear_output", with its
// content), or a comm message (msgType "comm", with m).
func ParseFrame(payload []byte) (msgType string, content map[string]any, m *comm.Message, err error) {
	var f outFrame
	if err := json.Unmarshal(payload, &f); err != nil {
		return "", nil, nil, fmt.Errorf("a worker sent a bad frame: %w", err)
	}
	switch f.Type {
	case "display_data", "update_display_data", "clear_output":
		return f.Type, f.Content, nil, nil
	case "comm":
		if f.Comm == nil || f.Comm.CommID == "" {
			return "", nil, nil, fmt.Errorf("a worker sent a comm frame without its message")
		}
		return f.Type, nil, f.Comm, nil
	}
	return "", nil, nil, fmt.Errorf("a worker sent a frame of unknown type %q", f.Type)
}
