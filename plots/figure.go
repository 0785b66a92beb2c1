package plots

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/goaccel/goaccel/display"
)

// Figure is a chart ready to show: one gonum plot, or a grid of them (an
// image grid, a live plot's subplots). A Figure left as a cell's last
// expression shows inline as a PNG (AsSVG for SVG). Its setters return the
// figure, so a whole chart is one expression:
//
//	plots.Line(train, val).Legend("train", "val").Title("loss").LogY()
type Figure struct {
	panels   [][]*plot.Plot // rows of subplots; nil entries are empty tiles
	title    string         // the figure's own title, above a grid
	width    vg.Length
	height   vg.Length
	format   string             // "png" or "svg": how the figure shows inline
	legended []plot.Thumbnailer // series of a one-panel chart, in Legend's order
	// squareTiles sizes the height so each tile's image is square (an
	// image grid whose size was not set).
	squareTiles bool
}

// DefaultWidth and DefaultHeight are the size of a one-panel figure.
const (
	DefaultWidth  = 6 * vg.Inch
	DefaultHeight = 4 * vg.Inch
)

// Of wraps a gonum plot built by hand so it shows, renders and saves like
// the one-call figures.
func Of(p *plot.Plot) *Figure {
	if p == nil {
		panic("plots.Of: nil plot")
	}
	return single(p)
}

func single(p *plot.Plot) *Figure {
	return &Figure{panels: [][]*plot.Plot{{p}}, width: DefaultWidth, height: DefaultHeight, format: "png"}
}

// Plot returns the figure's first subplot, for changes the setters do not
// cover (gonum/plot's whole API applies).
func (f *Figure) Plot() *plot.Plot { return f.each()[0] }

// Panels returns the figure's subplots row by row (nil for an empty tile).
func (f *Figure) Panels() [][]*plot.Plot { return f.panels }

// each returns the non-nil subplots.
func (f *Figure) each() []*plot.Plot {
	var out []*plot.Plot
	for _, row := range f.panels {
		for _, p := range row {
			if p != nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// Title sets the chart's title (above the whole grid for a grid).
func (f *Figure) Title(title string) *Figure {
	if len(f.panels) == 1 && len(f.panels[0]) == 1 {
		f.panels[0][0].Title.Text = title
	} else {
		f.title = title
	}
	return f
}

// XLabel labels the horizontal axis of every subplot.
func (f *Figure) XLabel(label string) *Figure {
	for _, p := range f.each() {
		p.X.Label.Text = label
	}
	return f
}

// YLabel labels the vertical axis of every subplot.
func (f *Figure) YLabel(label string) *Figure {
	for _, p := range f.each() {
		p.Y.Label.Text = label
	}
	return f
}

// LogX makes the horizontal axes logarithmic; every value must be positive.
func (f *Figure) LogX() *Figure {
	for _, p := range f.each() {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	return f
}

// LogY makes the vertical axes logarithmic; every value must be positive.
func (f *Figure) LogY() *Figure {
	for _, p := range f.each() {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
	}
	return f
}

// Size sets the figure's size in inches (like matplotlib's figsize). At
// the default resolution an inch is 96 pixels.
func (f *Figure) Size(widthInches, heightInches float64) *Figure {
	if !(widthInches > 0 && heightInches > 0) || widthInches > 100 || heightInches > 100 {
		panic(fmt.Sprintf("plots: Size(%v, %v): width and height are inches, each in (0, 100]", widthInches, heightInches))
	}
	f.width, f.height = vg.Length(widthInches)*vg.Inch, vg.Length(heightInches)*vg.Inch
	f.squareTiles = false
	return f
}

// Legend names the series of a line or scatter chart, in the order they
// were given, and shows the legend.
func (f *Figure) Legend(names ...string) *Figure {
	if len(names) > len(f.legended) {
		panic(fmt.Sprintf("plots: Legend: %d names for %d series", len(names), len(f.legended)))
	}
	p := f.Plot()
	p.Legend = plot.NewLegend()
	p.Legend.Top = true
	for i, name := range names {
		p.Legend.Add(name, f.legended[i])
	}
	return f
}

// AsSVG makes the figure show inline as SVG (sharp at any zoom; larger for
// many points) instead of PNG.
func (f *Figure) AsSVG() *Figure { f.format = "svg"; return f }

// AsPNG makes the figure show inline as PNG, the default.
func (f *Figure) AsPNG() *Figure { f.format = "png"; return f }

// Render encodes the figure in a format gonum/plot writes: "png", "svg",
// "pdf", "eps", "jpg", "jpeg", "tif" or "tiff".
func (f *Figure) Render(format string) ([]byte, error) {
	b, err := f.render(format)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	return b, nil
}

// render is Render with errors that do not name the package.
func (f *Figure) render(format string) (out []byte, err error) {
	format = strings.ToLower(strings.TrimPrefix(format, "."))
	if err := f.checkLogAxes(); err != nil {
		return nil, err
	}
	w, h := f.size()
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, fmt.Errorf("render %q: %w (use png, svg, pdf, eps, jpg or tiff)", format, err)
	}
	defer func() {
		if r := recover(); r != nil { // gonum panics on some degenerate data
			out, err = nil, fmt.Errorf("render %s: %v", format, r)
		}
	}()
	f.drawOn(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("render %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// renderPNGFast renders a PNG with the fastest compression: the path of a
// live plot, whose redraws count against the training they show.
func (f *Figure) renderPNGFast() (out []byte, err error) {
	if err := f.checkLogAxes(); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("plots: render png: %v", r)
		}
	}()
	c := vgimg.New(f.size())
	f.drawOn(draw.New(c))
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return nil, fmt.Errorf("plots: render png: %w", err)
	}
	return buf.Bytes(), nil
}

// size is the canvas size: width × height, or for an image grid, a height
// that makes each tile square with room for its caption and the title.
func (f *Figure) size() (w, h vg.Length) {
	if !f.squareTiles {
		return f.width, f.height
	}
	rows, cols := len(f.panels), len(f.panels[0])
	tile := (f.width - vg.Length(cols+1)*vg.Millimeter) / vg.Length(cols)
	caption := vg.Length(0)
	for _, p := range f.each() {
		if p.Title.Text != "" {
			caption = p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
		}
	}
	h = vg.Length(rows)*(tile+caption) + vg.Length(rows+1)*vg.Millimeter
	if f.title != "" {
		h += titleHeight
	}
	return f.width, h
}

// titleHeight is the band above a grid that holds the figure's title.
const titleHeight = 0.35 * vg.Inch

// drawOn draws every subplot into dc: one plot fills it; a grid is aligned
// so that the data areas of a row (column) line up.
func (f *Figure) drawOn(dc draw.Canvas) {
	if f.title != "" {
		sty := plot.New().Title.TextStyle
		sty.Font.Size = 13
		pt := vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - titleHeight/4}
		dc.FillText(sty, pt, f.title)
		dc = draw.Crop(dc, 0, 0, 0, -titleHeight)
	}
	if len(f.panels) == 1 && len(f.panels[0]) == 1 {
		f.panels[0][0].Draw(dc)
		return
	}
	tiles := draw.Tiles{Rows: len(f.panels), Cols: len(f.panels[0]), PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	canvases := plot.Align(f.panels, tiles, dc)
	for r, row := range f.panels {
		for c, p := range row {
			if p != nil {
				p.Draw(canvases[r][c])
			}
		}
	}
}

// checkLogAxes turns gonum's panic on a log axis over non-positive values
// into an error that says what to do.
func (f *Figure) checkLogAxes() error {
	for _, p := range f.each() {
		for _, ax := range []struct {
			name string
			a    *plot.Axis
		}{{"x", &p.X}, {"y", &p.Y}} {
			if _, ok := ax.a.Scale.(plot.LogScale); ok && !(ax.a.Min > 0) {
				return fmt.Errorf("the %s axis is logarithmic but its smallest value is %v; a log axis needs values > 0 (drop the others or use a linear axis)", ax.name, ax.a.Min)
			}
		}
	}
	return nil
}

// Save writes the figure to path in the format its extension names (.png,
// .svg, .pdf, .eps, .jpg, .tiff).
func (f *Figure) Save(path string) error {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	if ext == "" {
		return fmt.Errorf("plots: save %s: the file name has no extension; end it in .png, .svg, .pdf, .eps, .jpg or .tiff", path)
	}
	b, err := f.render(ext)
	if err != nil {
		return fmt.Errorf("plots: save %s: %w", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("plots: save: %w", err)
	}
	return nil
}

// MIMEBundle renders the figure in its inline format; it makes a Figure a
// display.Renderer, so a Figure left as a cell's last expression shows.
func (f *Figure) MIMEBundle() map[string]any {
	b, err := f.Render(f.format)
	if err != nil {
		return map[string]any{"text/plain": err.Error()}
	}
	if f.format == "svg" {
		return map[string]any{"image/svg+xml": string(b), "text/plain": f.String()}
	}
	return map[string]any{"image/png": base64.StdEncoding.EncodeToString(b), "text/plain": f.String()}
}

// Show displays the figure under the running cell now (for figures drawn in
// a loop, where no last expression shows them). Outside a kernel it does
// nothing.
func (f *Figure) Show() error {
	b, err := f.Render(f.format)
	if err != nil {
		return err
	}
	if f.format == "svg" {
		return display.SVG(string(b))
	}
	return display.PNG(b)
}

// String names the figure for text-only front ends.
func (f *Figure) String() string {
	title := f.title
	if title == "" {
		title = f.Plot().Title.Text
	}
	return fmt.Sprintf("<figure %q>", title)
}

// Show displays a gonum plot built by hand as a PNG under the running cell.
// Outside a kernel it does nothing.
func Show(p *plot.Plot) error { return Of(p).Show() }

// Render encodes a gonum plot at the given size in a format gonum/plot
// knows: "png", "svg", "pdf", "eps", "jpg" or "tiff".
func Render(p *plot.Plot, width, height vg.Length, format string) ([]byte, error) {
	f := Of(p)
	f.width, f.height = width, height
	return f.Render(format)
}

// PNG renders a gonum plot as a PNG image of DefaultWidth × DefaultHeight.
func PNG(p *plot.Plot) ([]byte, error) { return Of(p).Render("png") }

// SVG renders a gonum plot as an SVG document of DefaultWidth × DefaultHeight.
func SVG(p *plot.Plot) (string, error) {
	b, err := Of(p).Render("svg")
	return string(b), err
}

var _ display.Renderer = (*Figure)(nil)
