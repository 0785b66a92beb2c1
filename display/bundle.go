package display

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
)

// Bundle is a MIME bundle: MIME type → content, e.g. {"text/html": "<b>hi</b>"}.
// A Bundle given to New, Update or Value, or left as a cell's last
// expression, is shown as it is (text/plain is added when missing).
type Bundle map[string]any

// MIMEBundle returns b itself; it makes Bundle a Renderer.
func (b Bundle) MIMEBundle() map[string]any { return b }

// Renderer is a value that knows all its MIME representations.
type Renderer interface {
	MIMEBundle() map[string]any
}

// HTMLer is a value that renders itself as HTML.
type HTMLer interface {
	HTML() string
}

// Markdowner is a value that renders itself as Markdown.
type Markdowner interface {
	Markdown() string
}

// SVGer is a value that renders itself as an SVG document.
type SVGer interface {
	SVG() string
}

// PNGer is a value that renders itself as a PNG image (encoded bytes).
type PNGer interface {
	PNG() []byte
}

// BundleOf returns the MIME bundle for v: text/plain always, plus text/html,
// text/markdown, image/svg+xml or image/png when v renders itself that way.
func BundleOf(v any) (map[string]any, error) {
	b := map[string]any{}
	if r, ok := v.(Renderer); ok {
		for k, d := range r.MIMEBundle() {
			b[k] = d
		}
	}
	if h, ok := v.(HTMLer); ok {
		b["text/html"] = h.HTML()
	}
	if m, ok := v.(Markdowner); ok {
		b["text/markdown"] = m.Markdown()
	}
	if s, ok := v.(SVGer); ok {
		b["image/svg+xml"] = s.SVG()
	}
	if p, ok := v.(PNGer); ok {
		b["image/png"] = base64.StdEncoding.EncodeToString(p.PNG())
	} else if img, ok := v.(image.Image); ok {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, fmt.Errorf("display: encode image as PNG: %w", err)
		}
		b["image/png"] = base64.StdEncoding.EncodeToString(buf.Bytes())
	}
	if _, ok := b["text/plain"]; !ok {
		b["text/plain"] = plainText(v)
	}
	return b, nil
}

func plainText(v any) string {
	switch v := v.(type) {
	case Bundle:
		return "<display bundle>"
	case image.Image:
		return fmt.Sprintf("<image %dx%d>", v.Bounds().Dx(), v.Bounds().Dy())
	case string:
		return v
	}
	return fmt.Sprint(v)
}
