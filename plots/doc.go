// Package plots draws gonum/plot figures for notebooks: line plots of
// metrics, rendering to PNG or SVG, and a live plot that redraws itself in
// place while a training loop logs values.
//
// In a goaccel notebook cell:
//
//	fig := plots.Line("loss", nil, losses)
//	plots.Show(fig) // shows the figure as a PNG under the cell
//
// A live plot of training metrics, redrawn at most every half second:
//
//	live := plots.NewLive("training")
//	for step := range steps {
//		live.Add(step, map[string]float64{"loss": loss})
//	}
//	live.Flush()
//
// Outside a kernel, Show and Live draw nothing and return no error, so the
// same code runs in a compiled program.
package plots
