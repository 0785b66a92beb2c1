package widgets_test

import (
	"fmt"

	"github.com/goaccel/goaccel/widgets"
)

// A slider's value is read at any time; outside a kernel widgets are plain
// values, so this runs anywhere.
func ExampleIntSlider() {
	epochs := widgets.NewIntSlider("epochs", 3, 1, 10)
	epochs.OnChange(func(v int) { fmt.Println("epochs now", v) })
	epochs.SetValue(12) // kept within the range; code's changes run callbacks at once
	fmt.Println(epochs.Value())
	// Output:
	// epochs now 10
	// 10
}

func ExampleNewButton() {
	b := widgets.NewButton("train")
	b.OnClick(func() { fmt.Println("clicked") })
	b.Click()
	fmt.Println(b.Clicks(), "click")
	// Output:
	// clicked
	// 1 click
}

func ExampleDropdown() {
	opt := widgets.NewDropdown("optimizer", []string{"sgd", "adam", "adamw"}, "adamw")
	fmt.Println(opt.Value(), opt.Index())
	if err := opt.SetValue("rmsprop"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// adamw 2
	// widgets: "rmsprop" is not an option of the dropdown (["sgd" "adam" "adamw"])
}

// Interact runs its function now and each time a control changes.
func ExampleInteract() {
	width := widgets.NewIntSlider("width", 4, 1, 8)
	widgets.Interact(func() { fmt.Println("width", width.Value()) }, width)
	width.SetValue(6)
	// Output:
	// width 4
	// width 6
}

func ExampleNewHBox() {
	lr := widgets.NewFloatSlider("lr", 0.01, 0.001, 0.1)
	run := widgets.NewButton("run")
	row := widgets.NewHBox(lr, run)
	fmt.Println(row)
	// Output:
	// HBox(FloatSlider(description="lr", value=0.01, min=0.001, max=0.1), Button(description="run"))
}
