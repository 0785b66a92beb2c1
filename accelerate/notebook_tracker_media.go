package accelerate

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/png"

	"github.com/goaccel/goaccel/display"
)

// LogImages shows each image under the cell with its tag and step; a tag's later images
// replace its earlier one in place (update_display_data), so a run logging every epoch keeps
// one output per tag. Outside a kernel it does nothing.
func (n *notebookTracker) LogImages(images map[string]image.Image, step int) error {
	if n.live == nil {
		return nil
	}
	for _, tag := range sortedKeys(images) {
		img := images[tag]
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return fmt.Errorf("notebook tracker: image %q: %w", tag, err)
		}
		r := img.Bounds()
		// Small images (MNIST digits) are drawn at least 112 pixels wide, pixels kept sharp.
		width := max(r.Dx(), min(112, 4*r.Dx()))
		n.show("image:"+tag, display.Bundle{
			"text/html": fmt.Sprintf(`<figure style="margin:0"><img src="data:image/png;base64,%s" width="%d" style="image-rendering:pixelated"><figcaption>%s, step %d</figcaption></figure>`,
				base64.StdEncoding.EncodeToString(b.Bytes()), width, html.EscapeString(tag), step),
			"text/plain": fmt.Sprintf("%s, step %d: a %d×%d image", tag, step, r.Dx(), r.Dy()),
		})
	}
	return nil
}

// LogText shows each text (Markdown) under the cell with its tag and step, a tag's later text
// replacing its earlier one in place. Outside a kernel it does nothing.
func (n *notebookTracker) LogText(texts map[string]string, step int) error {
	if n.live == nil {
		return nil
	}
	for _, tag := range sortedKeys(texts) {
		n.show("text:"+tag, display.Bundle{
			"text/markdown": fmt.Sprintf("**%s**, step %d\n\n%s", tag, step, texts[tag]),
			"text/plain":    fmt.Sprintf("%s, step %d: %s", tag, step, texts[tag]),
		})
	}
	return nil
}

// show displays b under key: a new output the first time, an update of it afterwards.
func (n *notebookTracker) show(key string, b display.Bundle) {
	if h := n.outputs[key]; h != nil {
		_ = h.Update(b)
		return
	}
	if n.outputs == nil {
		n.outputs = map[string]*display.Handle{}
	}
	n.outputs[key] = display.New(b)
}
