package plots

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/goaccel/goaccel/display"
)

// DefaultWidth and DefaultHeight are the size figures are rendered at by
// Show and Figure.
const (
	DefaultWidth  = 6 * vg.Inch
	DefaultHeight = 4 * vg.Inch
)

// palette is matplotlib's default colour cycle, so figures look familiar.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
}

// Color returns the i-th colour of the default cycle.
func Color(i int) color.Color { return palette[i%len(palette)] }

// Line returns a line plot of ys against xs. A nil xs plots ys against
// 0, 1, 2, …; otherwise xs and ys must have the same length.
func Line(title string, xs, ys []float64) (*plot.Plot, error) {
	if xs != nil && len(xs) != len(ys) {
		return nil, fmt.Errorf("plots: Line %q: %d x values but %d y values; pass equal lengths or nil xs", title, len(xs), len(ys))
	}
	pts := make(plotter.XYs, len(ys))
	for i, y := range ys {
		x := float64(i)
		if xs != nil {
			x = xs[i]
		}
		pts[i] = plotter.XY{X: x, Y: y}
	}
	p := plot.New()
	p.Title.Text = title
	if len(pts) == 0 {
		return p, nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, fmt.Errorf("plots: Line %q: %w", title, err)
	}
	l.Color = Color(0)
	p.Add(l)
	return p, nil
}

// Render encodes p at the given size in a format gonum/plot knows: "png",
// "svg", "pdf", "eps", "jpg" or "tiff".
func Render(p *plot.Plot, width, height vg.Length, format string) ([]byte, error) {
	w, err := p.WriterTo(width, height, format)
	if err != nil {
		return nil, fmt.Errorf("plots: render %s: %w", format, err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: render %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// PNG renders p as a PNG image of DefaultWidth × DefaultHeight.
func PNG(p *plot.Plot) ([]byte, error) { return Render(p, DefaultWidth, DefaultHeight, "png") }

// SVG renders p as an SVG document of DefaultWidth × DefaultHeight.
func SVG(p *plot.Plot) (string, error) {
	b, err := Render(p, DefaultWidth, DefaultHeight, "svg")
	return string(b), err
}

// Show displays p under the running cell as a PNG image. Outside a kernel it
// does nothing.
func Show(p *plot.Plot) error {
	b, err := PNG(p)
	if err != nil {
		return err
	}
	return display.PNG(b)
}

// Figure wraps a plot so that it renders itself when it is a cell's last
// expression: `plots.Figure{Plot: p}` shows p as a PNG.
type Figure struct {
	Plot *plot.Plot
}

// PNG renders the figure; it makes Figure a display.PNGer. A rendering error
// yields an empty image rather than a panic in the display path.
func (f Figure) PNG() []byte {
	b, err := PNG(f.Plot)
	if err != nil {
		return nil
	}
	return b
}

// String names the figure for text-only front ends.
func (f Figure) String() string { return fmt.Sprintf("<figure %q>", f.Plot.Title.Text) }
