// Package plots draws charts for notebooks in one call, on gonum/plot: line
// (several series, legend), scatter, histogram, bar, heat map, confusion
// matrix and image grids, from []float64, []int (any slice of numbers) or
// tensors; and Live, a figure of training metrics that redraws itself in
// place while a loop logs values.
//
// A figure left as a cell's last expression shows inline, as a PNG (AsSVG
// for SVG); its setters chain:
//
//	plots.Line(trainLoss, valLoss).Legend("train", "val").Title("loss").XLabel("epoch").LogY()
//	plots.Hist(model.Parameters()[0], 50)
//	plots.Images(batch, 8).Captions(labels...)    // a [N, 784] or [N, 1, 28, 28] batch
//	plots.Confusion(pred, truth, 10)
//	fig.Save("loss.svg")                          // png, svg, pdf, eps, jpg, tiff
//
// Bad arguments (a string series, lengths that differ, a tensor of the
// wrong shape) panic with a message that says what to pass, as tensor ops
// do; rendering and saving return errors.
//
// A live plot, one subplot per metric, redrawn at most twice a second and
// never more than 2 % of the time (as SVG), with a final redraw on Flush (as
// PNG, which every notebook viewer and nbconvert's HTML export show):
//
//	live := plots.NewLive("training")
//	for step := range steps {
//		live.Add(step, map[string]float64{"loss": loss})
//	}
//	live.Flush()
//
// accelerate's "notebook" tracker is a Live. Outside a kernel, Show and Live
// draw nothing and return no error, so the same code runs in a compiled
// program. Figure.Plot gives the gonum plot underneath for anything the
// setters do not cover; Of wraps a gonum plot built by hand.
//
// Files:
//   - charts.go: Color, Line, LineXY, Scatter, Hist and Bar.
//   - figure.go: Figure (its chaining setters, AsSVG, AsPNG, Render, Save,
//     MIMEBundle, Show), Of, and the package-level Show, Render, PNG and SVG.
//   - grid.go: Heatmap, Confusion, Images and Captions.
//   - live.go: DefaultRedraw and Live (NewLive, StartRun, Add, Flush, and
//     Start, Log and Finish as a tracker), redrawn in place, or in a
//     widgets.Image with Live.Widget.
//   - values.go: the series and matrices the one-call figures take (slices
//     of numbers, tensors), converted to float64s.
package plots
