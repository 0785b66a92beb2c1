package plots_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/plots"
	"github.com/goaccel/goaccel/tensors"
)

// A line chart of two series in one call; in a notebook, leaving fig as the
// cell's last expression shows it.
func ExampleLine() {
	train := []float64{2.3, 1.1, 0.6, 0.4}
	val := []float64{2.4, 1.3, 0.9, 0.8}
	fig := plots.Line(train, val).Legend("train", "val").Title("loss").XLabel("epoch").LogY()
	png, err := fig.Render("png")
	fmt.Println(fig, len(png) > 1000, err)
	// Output: <figure "loss"> true <nil>
}

// Figures take slices of any number type or tensors.
func ExampleHist() {
	weights := tensors.NewGenerator(1).Randn(1000)
	fig := plots.Hist(weights, 30).Title("initial weights").Size(5, 3)
	fmt.Println(fig)
	// Output: <figure "initial weights">
}

// A confusion matrix from predicted and true class indices.
func ExampleConfusion() {
	pred := []int{0, 1, 2, 2, 1}
	truth := []int{0, 1, 2, 1, 1}
	fig := plots.Confusion(pred, truth, 3).Title("validation")
	fmt.Println(fig)
	// Output: <figure "validation">
}

// A grid of images with a caption under each: a batch of MNIST digits is a
// [N, 784] or [N, 1, 28, 28] tensor.
func ExampleImages() {
	batch := tensors.NewGenerator(1).Rand(6, 1, 28, 28)
	fig := plots.Images(batch, 3).Captions("7 → 1", "3 → 5", "4 → 9").Title("misclassified")
	fmt.Println(fig, len(fig.Panels()), "rows")
	// Output: <figure "misclassified"> 2 rows
}

func ExampleFigure_Save() {
	dir, _ := os.MkdirTemp("", "plots-example-")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bars.svg")
	err := plots.Bar([]int{3, 5, 2}, "cat", "dog", "bird").Title("counts").Save(path)
	fmt.Println(err)
	// Output: <nil>
}

// A live plot of training metrics, one subplot per metric, redrawn in place
// at most twice a second; outside a kernel it only records.
func ExampleLive() {
	live := plots.NewLive("training")
	live.Smoothing = 0.6
	for step := 0; step < 3; step++ {
		live.Add(step, map[string]float64{"loss": 1 / float64(step+1), "accuracy": 0.3 * float64(step)})
	}
	live.Flush()
	fmt.Println(len(live.Values("loss")), len(live.Figure().Panels()[0]), "subplots")
	// Output: 3 2 subplots
}
