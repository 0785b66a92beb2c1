package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goaccel/goaccel/tensors"
)

// cells is a matrix as gonum's GridXYZ: column c, row r at (c, r), so
// row 0 is drawn at the top by an inverted y axis.
type cells [][]float64

func (m cells) Dims() (c, r int)   { return len(m[0]), len(m) }
func (m cells) Z(c, r int) float64 { return m[r][c] }
func (m cells) X(c int) float64    { return float64(c) }
func (m cells) Y(r int) float64    { return float64(r) }

// Heatmap draws a matrix ([][]float64, [][]int or a 2-D tensor) as coloured
// cells, row 0 at the top, on a perceptually uniform dark-to-light scale.
func Heatmap(m any) *Figure {
	rows := matrix("Heatmap", "the matrix", m)
	cm := moreland.ExtendedBlackBody()
	cm.SetMin(0)
	cm.SetMax(1)
	return heatmap("Heatmap", rows, cm.Palette(256), false)
}

func heatmap(fn string, rows [][]float64, pal palette.Palette, annotate bool) *Figure {
	if len(rows) == 0 || len(rows[0]) == 0 {
		panic(fmt.Sprintf("plots.%s: the matrix is empty", fn))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range rows {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		panic(fmt.Sprintf("plots.%s: the matrix has no finite value", fn))
	}
	if lo == hi {
		hi = lo + 1
	}
	p := plot.New()
	h := plotter.NewHeatMap(cells(rows), pal)
	h.Min, h.Max = lo, hi
	h.NaN = color.Transparent
	p.Add(h)
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	nr, nc := len(rows), len(rows[0])
	p.X.Tick.Marker, p.Y.Tick.Marker = indexTicks(nc), indexTicks(nr)
	if annotate {
		var lbl plotter.XYLabels
		for r, row := range rows {
			for c, v := range row {
				lbl.XYs = append(lbl.XYs, plotter.XY{X: float64(c), Y: float64(r)})
				lbl.Labels = append(lbl.Labels, strconv.FormatFloat(v, 'g', 4, 64))
			}
		}
		labels, err := plotter.NewLabels(lbl)
		if err == nil {
			for i := range labels.TextStyle {
				labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
				labels.TextStyle[i].Font.Size = vg.Points(math.Max(6, math.Min(11, 120/float64(max(nr, nc)))))
				r, c := i/nc, i%nc
				if (rows[r][c]-lo)/(hi-lo) > 0.6 {
					labels.TextStyle[i].Color = color.White
				}
			}
			p.Add(labels)
		}
	}
	f := single(p)
	side := math.Min(6, math.Max(3, 0.45*float64(max(nr, nc))))
	return f.Size(side+0.6, side)
}

// indexTicks labels 0..n-1, thinned to at most about 20 labels.
func indexTicks(n int) plot.ConstantTicks {
	step := max(1, (n+19)/20)
	var ts plot.ConstantTicks
	for i := 0; i < n; i += step {
		ts = append(ts, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
	}
	return ts
}

// Confusion draws the confusion matrix of predicted against true class
// labels (each a slice of ints or a tensor of class indices), classes ×
// classes cells annotated with their counts: row = true class, column =
// predicted class.
func Confusion(predicted, actual any, classes int) *Figure {
	pred, truth := floats("Confusion", "predicted", predicted), floats("Confusion", "actual", actual)
	if len(pred) != len(truth) {
		panic(fmt.Sprintf("plots.Confusion: %d predictions but %d true labels; pass one of each per sample", len(pred), len(truth)))
	}
	if classes < 1 {
		panic(fmt.Sprintf("plots.Confusion: classes is %d; pass the number of classes", classes))
	}
	counts := make([][]float64, classes)
	for i := range counts {
		counts[i] = make([]float64, classes)
	}
	for i := range pred {
		p, t := int(pred[i]), int(truth[i])
		if p < 0 || p >= classes || t < 0 || t >= classes || float64(p) != pred[i] || float64(t) != truth[i] {
			panic(fmt.Sprintf("plots.Confusion: sample %d has predicted %v and true %v; labels must be integers in [0, %d)", i, pred[i], truth[i], classes))
		}
		counts[t][p]++
	}
	blues, err := brewer.GetPalette(brewer.TypeSequential, "Blues", 9)
	if err != nil {
		panic(fmt.Sprintf("plots.Confusion: %v", err))
	}
	f := heatmap("Confusion", counts, blues, true)
	f.XLabel("predicted").YLabel("true")
	return f
}

// Images draws a batch of images in a grid of cols columns: a tensor of
// shape [N, H, W], [N, 1, H, W], [N, 3, H, W] (RGB) or [N, D] with D a
// square (a flattened MNIST batch is [N, 784]), a single [H, W] image, or a
// [][]float64 of flattened square images. Values are scaled from the
// batch's minimum (black) to its maximum (white). Captions puts a line
// under each image.
func Images(batch any, cols int) *Figure {
	imgs := toImages(batch)
	if cols <= 0 {
		cols = min(len(imgs), 8)
	}
	nrows := (len(imgs) + cols - 1) / cols
	panels := make([][]*plot.Plot, nrows)
	for r := range panels {
		panels[r] = make([]*plot.Plot, cols)
	}
	for i, img := range imgs {
		p := plot.New()
		b := img.Bounds()
		p.Add(plotter.NewImage(img, 0, 0, float64(b.Dx()), float64(b.Dy())))
		p.HideAxes()
		p.Title.TextStyle.Font.Size = 9
		p.Title.Padding = vg.Points(2)
		panels[i/cols][i%cols] = p
	}
	cell := math.Min(1.2, 9/float64(cols))
	return &Figure{panels: panels, width: vg.Length(cell*float64(cols)) * vg.Inch, format: "png", squareTiles: true}
}

// Captions titles the subplots of a grid in order, e.g. "7 → 1" under each
// misclassified digit.
func (f *Figure) Captions(captions ...string) *Figure {
	ps := f.each()
	if len(captions) > len(ps) {
		panic(fmt.Sprintf("plots: Captions: %d captions for %d images", len(captions), len(ps)))
	}
	for i, c := range captions {
		ps[i].Title.Text = c
	}
	return f
}

// toImages turns a batch into grayscale or RGB images scaled over the
// batch's range of values.
func toImages(batch any) []image.Image {
	var shape []int
	var flat []float64
	if t, ok := batch.(*tensors.Tensor); ok && t != nil {
		shape, flat = t.Shape(), t.Float64s()
	} else {
		rows := matrix("Images", "the batch", batch)
		shape = []int{len(rows), len(rows[0])}
		for _, r := range rows {
			flat = append(flat, r...)
		}
	}
	n, ch, h, w := imageShape(shape)
	if n == 0 {
		panic("plots.Images: the batch is empty")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range flat {
		if finite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	level := func(v float64) uint8 {
		if !finite(v) {
			return 0
		}
		return uint8(math.Round(255 * (v - lo) / (hi - lo)))
	}
	out := make([]image.Image, n)
	for i := range out {
		base := i * ch * h * w
		if ch == 1 {
			g := image.NewGray(image.Rect(0, 0, w, h))
			for k := range h * w {
				g.Pix[k] = level(flat[base+k])
			}
			out[i] = g
			continue
		}
		c := image.NewRGBA(image.Rect(0, 0, w, h))
		for k := range h * w {
			c.Pix[4*k], c.Pix[4*k+1], c.Pix[4*k+2], c.Pix[4*k+3] =
				level(flat[base+k]), level(flat[base+h*w+k]), level(flat[base+2*h*w+k]), 255
		}
		out[i] = c
	}
	return out
}

// imageShape reads a batch shape as n images of ch channels, h × w.
func imageShape(s []int) (n, ch, h, w int) {
	switch {
	case len(s) == 2 && isSquare(s[1]) && s[1] > 16:
		side := int(math.Sqrt(float64(s[1])))
		return s[0], 1, side, side
	case len(s) == 2:
		return 1, 1, s[0], s[1]
	case len(s) == 3:
		return s[0], 1, s[1], s[2]
	case len(s) == 4 && (s[1] == 1 || s[1] == 3):
		return s[0], s[1], s[2], s[3]
	}
	panic(fmt.Sprintf("plots.Images: a batch of shape %v is not images; pass [N, H, W], [N, 1|3, H, W], [N, H*W] with a square H*W, or [H, W]", s))
}

func isSquare(d int) bool {
	r := int(math.Sqrt(float64(d)))
	return r*r == d
}
