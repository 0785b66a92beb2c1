package widgets

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/host"
)

// Output is an area that shows output (ipywidgets' Output): what code
// prints and displays inside Capture, or what Append* adds.
//
// Capture works as ipywidgets' `with out:`: while it runs, the widget's
// msg_id is the id of the request that runs now (the cell, or the widget
// message whose callbacks run), and the front end shows in the widget,
// instead of in place, the output whose parent is that request.
type Output struct{ *model }

// NewOutput returns an empty Output.
func NewOutput() *Output {
	o := &Output{}
	o.model = newModel(spec{kind: "Output", model: "OutputModel", view: "OutputView",
		modelModule: outputModule, modelVersion: "1.0.0", viewModule: outputModule, viewVersion: "1.0.0"},
		map[string]any{"msg_id": "", "outputs": []any{}})
	o.open()
	return o
}

// Capture runs fn with what it prints, displays and raises shown in the
// Output. Outside a kernel it just runs fn.
func (o *Output) Capture(fn func()) {
	if o.mgr == nil {
		fn()
		return
	}
	prev := o.str("msg_id")
	o.set(map[string]any{"msg_id": o.mgr.Parent()})
	defer o.set(map[string]any{"msg_id": prev})
	fn()
}

// Clear empties the Output: while it captures, through the front end (so
// that the next output replaces what it shows without a flicker when wait is
// set), else at once.
func (o *Output) Clear(wait bool) {
	if o.str("msg_id") != "" {
		if s := host.Current().Display; s != nil {
			s.Send("clear_output", map[string]any{"wait": wait})
			return
		}
	}
	o.set(map[string]any{"outputs": []any{}})
}

// AppendStdout adds text to the Output as printed text.
func (o *Output) AppendStdout(text string) { o.appendOutput(stream("stdout", text)) }

// AppendStderr adds text to the Output as error text.
func (o *Output) AppendStderr(text string) { o.appendOutput(stream("stderr", text)) }

// AppendDisplay adds a MIME bundle (display.Bundle, a figure's bundle) to
// the Output.
func (o *Output) AppendDisplay(bundle map[string]any) {
	o.appendOutput(map[string]any{"output_type": "display_data", "data": bundle, "metadata": map[string]any{}})
}

func stream(name, text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": name, "text": text}
}

func (o *Output) appendOutput(out map[string]any) {
	o.mu.Lock()
	cur, _ := o.state["outputs"].([]any)
	o.mu.Unlock()
	o.set(map[string]any{"outputs": append(append([]any(nil), cur...), out)})
}

// Outputs returns what the Output shows, as notebook outputs
// ({"output_type": "stream", "name": "stdout", "text": …}, …): what Append*
// added and what the front end captured.
func (o *Output) Outputs() []map[string]any {
	l, _ := o.get("outputs").([]any)
	out := make([]map[string]any, 0, len(l))
	for _, x := range l {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// MIMEBundle is how the notebook shows the Output.
func (o *Output) MIMEBundle() map[string]any { return mimeBundle(o) }

// String describes the Output.
func (o *Output) String() string { return fmt.Sprintf("Output(%d outputs)", len(o.Outputs())) }
