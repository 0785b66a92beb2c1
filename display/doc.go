// Package display shows rich output in the notebook from Go cells: HTML,
// Markdown, images, SVG, JSON and plain text, and output that a cell updates
// in place. Outside a kernel every function writes nothing and returns nil.
//
//	display.HTML("<b>training</b>")
//	h := display.New(display.Bundle{"text/plain": "epoch 0"})
//	for epoch := 1; epoch <= 3; epoch++ {
//		h.Update(display.Bundle{"text/plain": fmt.Sprint("epoch ", epoch)})
//	}
//
// A cell whose last expression has an HTML, Markdown, SVG or PNG method, is
// an image.Image or a Bundle is shown with the matching MIME type too.
//
// Messages go out through the display of the process's host
// (internal/host): the kernel's executor sends them to the kernel, a
// launched worker turns them into frames for its launcher, and a program
// has none (nothing is written, no error).
//
// Files:
//   - bundle.go: Bundle, Renderer, HTMLer, Markdowner, SVGer, PNGer and
//     BundleOf, how a value renders.
//   - display.go: HTML, Markdown, PNG, SVG, JSON, Image, Text, Value and
//     Clear.
//   - handle.go: Handle, New, ID and Update: output replaced in place.
package display
