package job

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// displayFrame is a display message in transit from a worker to its launcher.
type displayFrame struct {
	Type    string         `json:"type"`
	Content map[string]any `json:"content"`
}

// frameSink is a worker's display sink: each message becomes a frame on
// stdout, in order with what the worker prints.
type frameSink struct{}

func (frameSink) Send(msgType string, content map[string]any) {
	b, err := json.Marshal(displayFrame{Type: msgType, Content: content})
	if err == nil {
		err = workers.WriteFrame(os.Stdout, b)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goaccel worker: send a %s message: %v\n", msgType, err)
	}
}

// ParseDisplay reads a display message from a frame's payload.
func ParseDisplay(payload []byte) (msgType string, content map[string]any, err error) {
	var f displayFrame
	if err := json.Unmarshal(payload, &f); err != nil {
		return "", nil, fmt.Errorf("a worker sent a bad display frame: %w", err)
	}
	switch f.Type {
	case "display_data", "update_display_data", "clear_output":
		return f.Type, f.Content, nil
	}
	return "", nil, fmt.Errorf("a worker sent a display frame of unknown type %q", f.Type)
}
