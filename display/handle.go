package display

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/goaccel/goaccel/internal/host"
)

// Handle is an output that can be replaced in place, like a progress line.
type Handle struct {
	id string
}

// New shows v (see BundleOf for how it renders) and returns a handle whose
// Update replaces that output.
func New(v any) *Handle {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := &Handle{id: hex.EncodeToString(b[:])}
	if data, err := BundleOf(v); err == nil {
		publish(data, map[string]any{"display_id": h.id})
	}
	return h
}

// ID returns the display_id that identifies this output.
func (h *Handle) ID() string { return h.id }

// Update replaces the output shown by New (update_display_data).
func (h *Handle) Update(v any) error {
	data, err := BundleOf(v)
	if err != nil {
		return err
	}
	if s := host.Current().Display; s != nil {
		s.Send("update_display_data", map[string]any{
			"data": data, "metadata": map[string]any{}, "transient": map[string]any{"display_id": h.id},
		})
	}
	return nil
}
