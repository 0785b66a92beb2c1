package plots_test

import (
	"fmt"

	"github.com/goaccel/goaccel/plots"
)

func ExampleLine() {
	fig, err := plots.Line("loss", nil, []float64{2.3, 1.1, 0.6, 0.4})
	if err != nil {
		fmt.Println(err)
		return
	}
	png, _ := plots.PNG(fig)
	fmt.Println(fig.Title.Text, len(png) > 1000)
	// Output: loss true
}

func ExampleLive() {
	live := plots.NewLive("training")
	for step := 0; step < 3; step++ {
		live.Add(step, map[string]float64{"loss": 1 / float64(step+1)})
	}
	live.Flush() // outside a kernel nothing is shown
	fmt.Println(len(live.Values("loss")))
	// Output: 3
}
