package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is matplotlib's default colour cycle, so figures look familiar.
var cycle = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
}

// Color returns the i-th colour of the default cycle.
func Color(i int) color.Color { return cycle[i%len(cycle)] }

// Line draws one or more series against their index (0, 1, 2, …), one line
// each. A series is a []float64, []float32, []int, []int64 (any slice of
// numbers) or a 1-D tensor. Name the series with Legend.
func Line(series ...any) *Figure {
	ys := make([][]float64, len(series))
	for i, s := range series {
		ys[i] = floats("Line", fmt.Sprintf("series %d", i), s)
	}
	return lines("Line", nil, ys)
}

// LineXY draws one or more series against shared x values; each series has
// as many values as xs.
func LineXY(xs any, series ...any) *Figure {
	x := floats("LineXY", "xs", xs)
	ys := make([][]float64, len(series))
	for i, s := range series {
		ys[i] = floats("LineXY", fmt.Sprintf("series %d", i), s)
		if len(ys[i]) != len(x) {
			panic(fmt.Sprintf("plots.LineXY: %d x values but %d values in series %d; pass equal lengths", len(x), len(ys[i]), i))
		}
	}
	return lines("LineXY", x, ys)
}

func lines(fn string, xs []float64, ys [][]float64) *Figure {
	if len(ys) == 0 {
		panic(fmt.Sprintf("plots.%s: no series; pass at least one slice or tensor of values", fn))
	}
	p := plot.New()
	f := single(p)
	for i, y := range ys {
		l, err := plotter.NewLine(xy(xs, y))
		if err != nil {
			panic(fmt.Sprintf("plots.%s: series %d: %v", fn, i, err))
		}
		l.Color = Color(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		f.legended = append(f.legended, l)
	}
	return f
}

// xy pairs ys with xs, or with their index when xs is nil; points with a
// NaN or infinite coordinate are left out (gonum refuses them).
func xy(xs, ys []float64) plotter.XYs {
	pts := make(plotter.XYs, 0, len(ys))
	for i, y := range ys {
		x := float64(i)
		if xs != nil {
			x = xs[i]
		}
		if finite(x) && finite(y) {
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
	}
	return pts
}

// Scatter draws one point per (xs[i], ys[i]).
func Scatter(xs, ys any) *Figure {
	x, y := floats("Scatter", "xs", xs), floats("Scatter", "ys", ys)
	if len(x) != len(y) {
		panic(fmt.Sprintf("plots.Scatter: %d x values but %d y values; pass equal lengths", len(x), len(y)))
	}
	p := plot.New()
	f := single(p)
	s, err := plotter.NewScatter(xy(x, y))
	if err != nil {
		panic(fmt.Sprintf("plots.Scatter: %v", err))
	}
	s.GlyphStyle = draw.GlyphStyle{Color: Color(0), Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	p.Add(s)
	f.legended = append(f.legended, s)
	return f
}

// Hist draws a histogram of values in bins equal-width bins (bins ≤ 0
// picks a number from the count). NaN and infinite values are left out.
func Hist(values any, bins int) *Figure {
	v := floats("Hist", "values", values)
	kept := v[:0]
	for _, x := range v {
		if finite(x) {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		panic("plots.Hist: no finite values to count")
	}
	p := plot.New()
	h, err := plotter.NewHist(plotter.Values(kept), bins)
	if err != nil {
		panic(fmt.Sprintf("plots.Hist: %v", err))
	}
	h.FillColor = Color(0)
	h.LineStyle.Color = color.White
	p.Add(h)
	p.Y.Label.Text = "count"
	return single(p)
}

// Bar draws one bar per value, labelled with labels when given (one per
// value).
func Bar(values any, labels ...string) *Figure {
	v := floats("Bar", "values", values)
	if len(labels) != 0 && len(labels) != len(v) {
		panic(fmt.Sprintf("plots.Bar: %d labels for %d values; pass one label per value or none", len(labels), len(v)))
	}
	for i, x := range v {
		if !finite(x) {
			panic(fmt.Sprintf("plots.Bar: value %d is %v; bars need finite heights", i, x))
		}
	}
	p := plot.New()
	b, err := plotter.NewBarChart(plotter.Values(v), vg.Points(max(4, 300/float64(max(len(v), 1)))))
	if err != nil {
		panic(fmt.Sprintf("plots.Bar: %v", err))
	}
	b.Color = Color(0)
	b.LineStyle.Width = 0
	p.Add(b)
	if len(labels) > 0 {
		p.NominalX(labels...)
	}
	return single(p)
}
