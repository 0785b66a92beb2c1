package display_test

import (
	"fmt"
	"image"

	"github.com/goaccel/goaccel/display"
)

// Outside a kernel the display functions show nothing and return nil, so
// code that uses them also runs in plain programs and tests.
func ExampleHTML() {
	err := display.HTML("<b>accuracy</b> 0.98")
	fmt.Println(err)
	// Output: <nil>
}

func ExampleMarkdown() {
	fmt.Println(display.Markdown("# Results"))
	// Output: <nil>
}

func ExampleImage() {
	img := image.NewGray(image.Rect(0, 0, 8, 8))
	fmt.Println(display.Image(img))
	// Output: <nil>
}

// A handle replaces its output in place: a progress line.
func ExampleNew() {
	h := display.New(display.Bundle{"text/plain": "step 0/3"})
	for step := 1; step <= 3; step++ {
		_ = h.Update(fmt.Sprintf("step %d/3", step))
	}
	fmt.Println(len(h.ID()))
	// Output: 32
}

func ExampleBundleOf() {
	b, _ := display.BundleOf(display.Bundle{"text/html": "<i>x</i>"})
	fmt.Println(b["text/html"], b["text/plain"])
	// Output: <i>x</i> <display bundle>
}

func ExampleJSON() {
	fmt.Println(display.JSON(map[string]float64{"loss": 0.25}))
	// Output: <nil>
}

func ExampleClear() {
	fmt.Println(display.Clear(true))
	// Output: <nil>
}
