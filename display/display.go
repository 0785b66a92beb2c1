package display

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"

	"github.com/goaccel/goaccel/internal/host"
)

// publish sends one display_data message; it does nothing outside a kernel.
func publish(data map[string]any, transient map[string]any) {
	s := host.Current().Display
	if s == nil {
		return
	}
	if transient == nil {
		transient = map[string]any{}
	}
	s.Send("display_data", map[string]any{"data": data, "metadata": map[string]any{}, "transient": transient})
}

// HTML shows an HTML fragment.
func HTML(html string) error {
	publish(map[string]any{"text/html": html, "text/plain": "<HTML>"}, nil)
	return nil
}

// Markdown shows Markdown text.
func Markdown(md string) error {
	publish(map[string]any{"text/markdown": md, "text/plain": md}, nil)
	return nil
}

// PNG shows PNG-encoded image bytes.
func PNG(data []byte) error {
	publish(map[string]any{"image/png": base64.StdEncoding.EncodeToString(data), "text/plain": "<PNG image>"}, nil)
	return nil
}

// SVG shows an SVG document.
func SVG(svg string) error {
	publish(map[string]any{"image/svg+xml": svg, "text/plain": "<SVG image>"}, nil)
	return nil
}

// JSON shows v as JSON (the notebook renders it as a tree). v must marshal
// with encoding/json.
func JSON(v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("display: JSON: %w", err)
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return fmt.Errorf("display: JSON: %w", err)
	}
	publish(map[string]any{"application/json": tree, "text/plain": string(raw)}, nil)
	return nil
}

// Image shows img as a PNG.
func Image(img image.Image) error {
	b, err := BundleOf(img)
	if err != nil {
		return err
	}
	publish(b, nil)
	return nil
}

// Text shows plain text as its own output (not part of stdout).
func Text(s string) error {
	publish(map[string]any{"text/plain": s}, nil)
	return nil
}

// Value shows v with every MIME type it renders itself as (see BundleOf).
func Value(v any) error {
	b, err := BundleOf(v)
	if err != nil {
		return err
	}
	publish(b, nil)
	return nil
}

// Clear clears the cell's output. With wait, the notebook clears it only when
// the next output arrives, which avoids flicker in animations.
func Clear(wait bool) error {
	if s := host.Current().Display; s != nil {
		s.Send("clear_output", map[string]any{"wait": wait})
	}
	return nil
}
