// Package widgets puts Jupyter widgets (ipywidgets 8: the same sliders,
// buttons and boxes JupyterLab, Notebook 7 and VS Code draw for Python) in
// Go cells, over the widget protocol 2.1 (comm target jupyter.widget).
//
//	lr := widgets.NewFloatSlider("lr", 0.01, 0.001, 0.1)
//	lr.SetReadoutFormat(".3f")
//	train := widgets.NewButton("train")
//	train.OnClick(func() { fmt.Println("training with lr", lr.Value()) })
//	widgets.NewHBox(lr, train) // a cell's last expression shows itself
//
// The widgets: IntSlider, FloatSlider, Dropdown, Checkbox, Text, Button,
// Progress, HTML, Image (its bytes travel as a binary buffer), Output (a
// cell's output captured into the widget), HBox and VBox (Box), and
// Interact, a function re-run when its controls change, its output shown in
// an Output under them. Each has a Layout (CSS) and most a Style, models of
// their own as in ipywidgets.
//
// Values are read at any time from any goroutine: the front end's changes
// reach the widget at once, even while a cell runs, so a training loop
// reads its sliders as the user moves them. Callbacks (OnChange, OnClick,
// OnSubmit, Interact's function) are cell code and never run beside a
// running cell: a change the user makes queues them behind the cell, and the
// kernel runs them when it ends (after its reply, before its idle) or at
// once when no cell runs, in order, interruptible like a cell. What
// they print or display, and a panic (reported with its cell line; the
// session keeps its variables), goes into the callback output area of the
// cell that registered them: an Output shown under that cell (under the
// widget when the widget is the cell's result). A change made by code
// (SetValue, Click) runs the callbacks at once, where the code runs, as in
// ipywidgets. Button's Clicks and Clicked count a click at once, so compiled
// code can act on it while a cell runs (notebook_launcher.StopButton stops
// a launch that way).
//
// A widget made by a `%accelerate launch` worker (rank 0: progress bars and
// live plots draw there) shows in the launching cell, and the front end's
// messages reach the worker; its callbacks run on a goroutine of the worker,
// one at a time, since its function runs throughout. When the workers end,
// their widgets stay as they were.
//
// Outside a kernel (a compiled program, a test) widgets are plain values:
// nothing is shown, values and callbacks work.
//
// Limits: a widget lives in the executor that made it, so an executor
// restart (a crash, or a cell importing a package that needs a derived
// executor) leaves the widgets shown before it inert; the front end cannot
// create widgets in the kernel (comm_open to jupyter.widget is refused).
//
// Files:
//   - box.go: Box, NewHBox and NewVBox.
//   - button.go: Button: Clicks, Clicked, OnClick, Click.
//   - callbacks.go: how callbacks are deferred and run, and each cell's
//     callback output area.
//   - checkbox.go: Checkbox.
//   - display.go: Display and the widgets' MIME bundle.
//   - dropdown.go: Dropdown.
//   - image.go: Image.
//   - interact.go: Interact and Interactive.
//   - layout.go: Layout and Style, the attached models.
//   - model.go: Widget, the protocol constants, and model, the state every
//     widget keeps and syncs: updates both ways, echo_update,
//     request_state, custom messages, binary buffers.
//   - output.go: Output: Capture, Clear, Append*.
//   - progress.go: Progress.
//   - sliders.go: IntSlider and FloatSlider.
//   - text.go: Text and HTML.
//   - values.go: typed reads of the state, SetTooltip.
package widgets
