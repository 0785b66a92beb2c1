package widgets

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
)

// Image shows an image from its encoded bytes (ipywidgets' Image), which
// travel as a binary buffer: a live plot redrawn in place, a sample.
type Image struct{ *model }

// NewImage returns an Image of PNG-encoded data (nil: empty).
func NewImage(data []byte) *Image {
	i := &Image{}
	if data == nil {
		data = []byte{}
	}
	i.model = newModel(spec{kind: "Image", model: "ImageModel", view: "ImageView",
		modelModule: controlsModule, modelVersion: modulesVersion, viewModule: controlsModule, viewVersion: modulesVersion},
		map[string]any{"format": "png", "height": "", "width": "", "value": data})
	i.open()
	return i
}

// Value returns the encoded image.
func (i *Image) Value() []byte {
	b, _ := i.get("value").([]byte)
	return b
}

// SetValue replaces the image with encoded data in the widget's format
// (PNG unless SetFormat changed it).
func (i *Image) SetValue(data []byte) {
	if data == nil {
		data = []byte{}
	}
	i.set(map[string]any{"value": data})
}

// SetImage replaces the image with img, encoded as PNG.
func (i *Image) SetImage(img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("widgets: encode the image as PNG: %w", err)
	}
	i.set(map[string]any{"format": "png", "value": buf.Bytes()})
	return nil
}

// SetEncoded replaces the image with data encoded as format ("png",
// "svg+xml", …) in one update.
func (i *Image) SetEncoded(format string, data []byte) {
	if data == nil {
		data = []byte{}
	}
	i.set(map[string]any{"format": format, "value": data})
}

// SetFormat names the encoding of the bytes ("png", "jpeg", "gif", "svg+xml").
func (i *Image) SetFormat(format string) { i.set(map[string]any{"format": format}) }

// SetSize sets the shown width and height, in pixels or any CSS length
// ("" keeps the image's own).
func (i *Image) SetSize(width, height string) {
	i.set(map[string]any{"width": width, "height": height})
}

// MIMEBundle is how the notebook shows the image.
func (i *Image) MIMEBundle() map[string]any { return mimeBundle(i) }

// String describes the image.
func (i *Image) String() string {
	return fmt.Sprintf("Image(format=%s, %d bytes)", i.str("format"), len(i.Value()))
}
