"""Widgets in the real UI: JupyterLab 4 and Notebook 7, driven in Debian's
Chromium by Playwright as a user clicks and types (harness.py).

Run by tests/widgets_ui_test.go, which starts the PyPI stack's
jupyter_server on loopback with goaccel's kernelspec and passes
UI_BASE_URL, UI_TOKEN, UI_ROOT, UI_ARTIFACTS (where the screenshots go) and
UI_MARKER (NAME=value in the environment of every process the server
starts), as for ui_checks.py.

    python widgets_ui.py [lab|notebook7 ...] [CHECK ...]   (default: both apps, every check)

In each app, one new "Go (goaccel)" notebook, cell after cell, each
interaction as a user makes it: drag an IntSlider (its OnChange prints under
its cell), click a Button, move an Interact's slider (its output replaced),
pick in a Dropdown (OnChange prints; the next cell reads the value), tick a
Checkbox, type into a Text and press Enter (OnSubmit), drag a FloatSlider
(the next cell reads a value on its step); watch a Progress advance during a
loop, a `progress.Options{Widget: true}` bar advance in place and a
`plots.Live` in widget mode redraw; see an Image widget's PNG; click a
button while a long cell runs (its callback's output comes after the cell,
under the button's cell); click a button whose callback panics (the report
under its cell, the session's variables kept); save and reload the page
(the widgets come back through the jupyter.widget.control comm and still
work); move a slider that rank 0 of a `%accelerate launch` shows while its
training loop reads it, then click the launch's Stop button.

Prints PASS/FAIL per check, each screenshot's path, and "N passed, N failed".
"""
import os
import re
import sys
import time

from harness import (Browser, Lab, Notebook7, Server, Shots, check, count_frames, marked_processes,
                     no_script_errors, run_checks, wait_for)

KERNEL = "Go (goaccel)"
SERVER = Server()
SHOTS = Shots(os.environ["UI_ARTIFACTS"])
MARKER = os.environ["UI_MARKER"]

IMPORTS = '''import (
\t"bytes"
\t"fmt"
\t"image"
\t"image/color"
\t"image/png"
\t"time"

\t"github.com/goaccel/goaccel/accelerate"
\t"github.com/goaccel/goaccel/data"
\t"github.com/goaccel/goaccel/notebook_launcher"
\t"github.com/goaccel/goaccel/plots"
\t"github.com/goaccel/goaccel/progress"
\t"github.com/goaccel/goaccel/tensors"
\t"github.com/goaccel/goaccel/widgets"
)
'''


def readout(cell):
    return cell.output(".widget-readout").first.inner_text().strip()


def shot(nb, name, *cells):
    """A screenshot of the cells (their smallest box), or of the page."""
    if not cells:
        return SHOTS.take(nb.page, name)
    cells[-1].locator.scroll_into_view_if_needed()
    return SHOTS.take_around(nb.page, name, *(c.locator for c in cells))


class WidgetChecks:
    """The checks of one app, in order, on one notebook (self.nb)."""

    def __init__(self, name, opener):
        self.name, self.opener = name, opener
        self.nb = None
        self.cells = {}  # the cells later checks use, by role
        self.state = {}

    def opens(self):
        self.app = self.opener()
        self.nb = self.app.new_notebook(KERNEL)
        self.frames = count_frames(self.nb.page, ["jupyter.widget.control", "request_states", "update_states"])
        c = self.nb.run(IMPORTS + 'fmt.Println("imported")', timeout=120)
        check("imported" in c.text() and not c.errors(), f"the imports: {c.text()!r}")

    def int_slider_drag(self):
        """Drag an IntSlider: the readout moves, its OnChange prints the
        value under the cell."""
        c = self.cells["n"] = self.nb.run('n := widgets.NewIntSlider("n", 3, 0, 10)\n'
                                          'n.OnChange(func(v int) { fmt.Println("n changed to", v) })\nn')
        wait_for("the slider's readout", lambda: readout(c) == "3", 30)
        self.nb.drag(c.output(".noUi-handle").first, 120)
        v = wait_for("the readout to move", lambda: readout(c) != "3" and readout(c), 30)
        c.wait_text(f"n changed to {v}", 30)
        self.state["n"] = int(v)
        shot(self.nb, f"{self.name}-int-slider-dragged", c)

    def button_clicks(self):
        """Click a Button twice: its OnClick counts in the cell's output."""
        c = self.cells["button"] = self.nb.run('clicks := 0\nb := widgets.NewButton("Click me")\n'
                                               'b.OnClick(func() { clicks++; fmt.Println("clicked", clicks, "times") })\nb')
        button = c.output("button.widget-button")
        button.click()
        c.wait_text("clicked 1 times", 30)
        button.click()
        c.wait_text("clicked 2 times", 30)
        shot(self.nb, f"{self.name}-button-clicked", c)

    def interact_reruns(self):
        """Move Interact's slider: its function re-runs and its output is
        replaced."""
        c = self.nb.run('w := widgets.NewIntSlider("w", 2, 0, 9)\n'
                        'widgets.Interact(func() { fmt.Println("w squared is", w.Value()*w.Value()) }, w)')
        c.wait_text("w squared is 4", 30)
        self.nb.drag(c.output(".noUi-handle").first, 150)
        v = int(wait_for("w's readout to move", lambda: readout(c) != "2" and readout(c), 30))
        c.wait_text(f"w squared is {v * v}", 30)
        check("w squared is 4" not in c.text(), f"Interact's earlier output stays: {c.text()!r}")
        shot(self.nb, f"{self.name}-interact-rerun", c)

    def dropdown_pick(self):
        """Pick an option: OnChange prints it, and the next cell reads it."""
        c = self.cells["dropdown"] = self.nb.run(
            'opt := widgets.NewDropdown("optimizer", []string{"sgd", "adam", "adamw"}, "sgd")\n'
            'opt.OnChange(func(v string) { fmt.Println("optimizer is now", v) })\nopt')
        select = c.output(".widget-dropdown select")
        wait_for("the dropdown to show sgd", lambda: select.input_value() == "sgd", 30)
        select.select_option(label="adam")
        c.wait_text("optimizer is now adam", 30)
        r = self.nb.run('fmt.Println("picked", opt.Value(), "at index", opt.Index())')
        check("picked adam at index 1" in r.text(), f"the next cell reads {r.text()!r}")
        shot(self.nb, f"{self.name}-dropdown-picked", c, r)

    def checkbox_toggle(self):
        """Tick the box, read it in the next cell, clear it: OnChange prints
        each value."""
        c = self.cells["checkbox"] = self.nb.run(
            'shuffle := widgets.NewCheckbox("shuffle", false)\n'
            'shuffle.OnChange(func(v bool) { fmt.Println("shuffle is", v) })\nshuffle')
        box = c.output(".widget-checkbox input[type=checkbox]")
        box.click()
        c.wait_text("shuffle is true", 30)
        r = self.nb.run('fmt.Println("shuffle.Value() =", shuffle.Value())')
        check("shuffle.Value() = true" in r.text(), f"the next cell reads {r.text()!r}")
        box.click()
        c.wait_text("shuffle is false", 30)
        check(not box.is_checked(), "the box stays ticked")
        shot(self.nb, f"{self.name}-checkbox-toggled", c, r)

    def text_submit(self):
        """Type into a Text and press Enter: OnSubmit gets the text, once;
        the next cell reads it."""
        c = self.cells["text"] = self.nb.run(
            'run := widgets.NewText("run name", "")\nseen := widgets.NewHTML("")\n'
            'run.OnChange(func(v string) { seen.SetValue("the kernel has " + v) })\n'
            'run.OnSubmit(func(v string) { fmt.Printf("submitted %q\\n", v) })\nwidgets.NewVBox(run, seen)')
        field = c.output(".widget-text input")
        field.click()
        self.nb.page.keyboard.type("mnist-3")
        # Enter once the kernel has the text: ipywidgets' front end sends a
        # submit at once but holds typed text back while an earlier update
        # is unanswered, so an Enter within a round trip of the last key
        # submits what the kernel had then (with ipykernel as with goaccel).
        c.wait_text("the kernel has mnist-3", 30)
        self.nb.page.keyboard.press("Enter")
        c.wait_text('submitted "mnist-3"', 30)
        check(c.text().count("submitted") == 1, f"OnSubmit ran more than once: {c.text()!r}")
        check(len(self.nb.cells()) == c.index + 2, f"typing in the box changed the notebook: {len(self.nb.cells())} cells")
        r = self.nb.run('fmt.Printf("run.Value() = %q\\n", run.Value())')
        check('run.Value() = "mnist-3"' in r.text(), f"the next cell reads {r.text()!r}")
        shot(self.nb, f"{self.name}-text-submitted", c, r)

    def float_slider_step(self):
        """Drag a FloatSlider of step 0.05: the next cell reads the value
        shown, on a step."""
        c = self.nb.run('lr := widgets.NewFloatSlider("lr", 0.2, 0, 1)\nlr.SetStep(0.05)\nlr')
        wait_for("the readout 0.20", lambda: readout(c) == "0.20", 30)
        self.nb.drag(c.output(".noUi-handle").first, 70)
        shown = wait_for("the readout to move", lambda: readout(c) != "0.20" and readout(c), 30)
        r = self.nb.run('fmt.Println("lr.Value() =", lr.Value())')
        m = re.search(r"lr\.Value\(\) = (\S+)", r.text())
        check(m, f"the next cell shows {r.text()!r}")
        v = float(m.group(1))
        check(f"{v:.2f}" == shown, f"lr.Value() = {v}, the slider shows {shown}")
        check(abs(v / 0.05 - round(v / 0.05)) < 1e-6, f"lr.Value() = {v} is not on a step of 0.05")
        shot(self.nb, f"{self.name}-float-slider-dragged", c, r)

    def progress_widget_loop(self):
        """A Progress set in a loop advances while the cell runs."""
        c = self.nb.new_cell('p := widgets.NewProgress("epoch", 20)\nwidgets.Display(p)\n'
                             'for i := 1; i <= 20; i++ {\n\ttime.Sleep(60 * time.Millisecond)\n\tp.SetValue(float64(i))\n}\n'
                             'fmt.Println("loop done")')
        c.watch("progress", "cell => [...cell.querySelectorAll('.widget-hprogress .progress-bar')].map(b => b.style.width)")
        self.nb.run_cell(c, wait=False)
        wait_for("the bar half way", lambda: c.running() and 30 <= bar_percent(c) <= 80, 30, interval=0.02)
        shot(self.nb, f"{self.name}-progress-advancing", c)
        c.wait_done(30)
        rec = c.watched("progress")
        during = [v for v, run in zip(rec["values"], rec["running"]) if run and len(v) == 1]
        check(max(len(v) for v in rec["values"]) == 1, f"bars at once: {rec['values']}")
        check(len(during) >= 4, f"the bar showed {len(during)} states while the cell ran: {during}")
        check(rec["values"][-1] == ["100%"], f"the bar ended at {rec['values'][-1]}")
        print(f"  Progress: {len(during)} widths while the loop ran: {' '.join(v[0] for v in during)}")

    def progress_bar_widget(self):
        """progress.Options{Widget: true}: one bar, advancing in place."""
        c = self.nb.new_cell('bar := progress.New(progress.Options{Total: 30, Desc: "train", Widget: true})\n'
                             'for i := 0; i < 30; i++ {\n\ttime.Sleep(50 * time.Millisecond)\n\tbar.Add(1)\n}\nbar.Close()')
        c.watch("bar", "cell => [...cell.querySelectorAll('.widget-hbox')].filter(r => r.querySelector('.widget-hprogress'))"
                ".map(r => [r.innerText.replace(/\\s+/g, ' ').trim(), r.querySelector('.progress-bar').className])")
        self.nb.run_cell(c, wait=False)
        wait_for("the bar under way", lambda: c.running() and re.search(r"\b([1-9]|1\d|2[0-8])/30\b", c.text()), 30, interval=0.02)
        shot(self.nb, f"{self.name}-progress-bar-advancing", c)
        c.wait_done(30)
        rec = c.watched("bar")
        rows = [v for v in rec["values"] if v]
        during = [v[0][0] for v, run in zip(rec["values"], rec["running"]) if run and v]
        check(max(len(v) for v in rec["values"]) == 1, f"rows at once: {max(len(v) for v in rec['values'])} (want 1: in place)")
        check(len(set(during)) >= 3, f"the bar showed {len(set(during))} states while the cell ran: {during}")
        last_text, last_class = rows[-1][0]
        check("100% 30/30" in last_text and "train" in last_text, f"the bar ended as {last_text!r}")
        check("progress-bar-success" in last_class, f"the finished bar's class: {last_class!r}")
        check(len(c.outputs()) == 1, f"the cell has {len(c.outputs())} outputs, want the one bar")
        print(f"  progress widget: {len(set(during))} states while the loop ran, last {last_text!r}")

    def live_plot_widget(self):
        """plots.Live in widget mode: one image, redrawn while the loop runs."""
        c = self.nb.new_cell('live := plots.NewLive("loss")\nlive.Widget = true\nlive.Redraw = 100 * time.Millisecond\n'
                             'for s := 0; s < 60; s++ {\n\tlive.Add(s, map[string]float64{"loss": 1 / float64(s+1)})\n'
                             '\ttime.Sleep(50 * time.Millisecond)\n}\nlive.Flush()\nfmt.Println("redraws:", live.Draws())')
        c.watch("live", "cell => [...cell.querySelectorAll('.jp-Cell-outputArea img')].map(i => i.src)")
        self.nb.run_cell(c, wait=False)
        wait_for("the plot while the loop runs", lambda: c.running() and c.output("img").count() > 0, 30, interval=0.02)
        shot(self.nb, f"{self.name}-live-plot-drawing", c)
        c.wait_done(30)
        rec = c.watched("live")
        srcs = [v[0] for v in rec["values"] if v]
        during = [v[0] for v, run in zip(rec["values"], rec["running"]) if run and v]
        check(max(len(v) for v in rec["values"]) == 1, f"images at once: {max(len(v) for v in rec['values'])} (want 1)")
        check(len(srcs) >= 2 and during, f"{len(srcs)} images in all, {len(during)} while the loop ran: not redrawn")
        size = wait_for("the final image loaded", lambda: (lambda s: s if s[0] > 0 else None)(natural_size(c)), 10)
        m = re.search(r"redraws: (\d+)", c.text())
        check(m and int(m.group(1)) >= len(srcs), f"the cell says {c.text()!r}; the page showed {len(srcs)} images")
        shot(self.nb, f"{self.name}-live-plot-final", c)
        print(f"  live plot: {len(srcs)} images ({len(during)} while the loop ran), final {size[0]}x{size[1]}")

    def image_widget(self):
        """An Image widget of a 64x48 PNG made in the cell: the page's <img>
        has that natural size."""
        c = self.nb.run('img := image.NewRGBA(image.Rect(0, 0, 64, 48))\n'
                        'for y := 0; y < 48; y++ {\n\tfor x := 0; x < 64; x++ {\n'
                        '\t\timg.Set(x, y, color.RGBA{uint8(4 * x), uint8(5 * y), 160, 255})\n\t}\n}\n'
                        'var buf bytes.Buffer\npng.Encode(&buf, img)\npic := widgets.NewImage(buf.Bytes())\npic')
        size = wait_for("the image to load", lambda: (lambda s: s if s[0] > 0 else None)(natural_size(c)), 30)
        check(size == [64, 48], f"the image's natural size is {size}, want 64x48")
        # The pixels the browser decoded, as the cell drew them: (4x, 5y, 160).
        px = c.output("img").last.evaluate("""i => {
            const cv = document.createElement('canvas'); cv.width = i.naturalWidth; cv.height = i.naturalHeight;
            const g = cv.getContext('2d'); g.drawImage(i, 0, 0);
            return [[2, 2], [60, 44]].map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data));
        }""")
        check(px == [[8, 10, 160, 255], [240, 220, 160, 255]], f"the image's pixels at (2,2) and (60,44): {px}")
        shot(self.nb, f"{self.name}-image", c)

    def click_during_a_long_cell(self):
        """Click a button while a long cell runs: the click counts at once
        (the cell sees it), its OnClick output comes only once the cell's
        code has ended (at the cell's end, before its prompt shows its
        number), under the button's cell."""
        x = self.nb.run('later := widgets.NewButton("Log it")\n'
                        'later.OnClick(func() { fmt.Println("the callback ran, click", later.Clicks()) })\nlater')
        y = self.nb.new_cell('for later.Clicks() < 1 {\n\ttime.Sleep(5 * time.Millisecond)\n}\n'
                             'fmt.Println("the long cell saw click 1")\n'
                             'for later.Clicks() < 2 {\n\ttime.Sleep(5 * time.Millisecond)\n}\n'
                             'fmt.Println("the long cell saw click 2 and ends")')
        x.watch("callback", "cell => cell.querySelector('.jp-Cell-outputArea').innerText.includes('the callback ran')")
        y.watch("long-cell", "cell => [cell.querySelector('.jp-InputPrompt').innerText.trim(), "
                "cell.querySelector('.jp-Cell-outputArea').innerText.includes('and ends')]")
        self.nb.run_cell(y, wait=False)
        wait_for("the long cell to run", lambda: y.running(), 10)
        button = x.output("button.widget-button")
        button.click()
        y.wait_text("the long cell saw click 1", 30)
        check(y.running() and "the callback ran" not in x.text(), f"while the cell runs the button's cell shows {x.text()!r}")
        shot(self.nb, f"{self.name}-clicked-during-a-long-cell", x, y)
        button.click()
        y.wait_done(30)
        x.wait_text("the callback ran, click 2", 30)
        cb, long = x.watched("callback"), y.watched("long-cell")
        shown = next(t for v, t in zip(cb["values"], cb["seen"]) if v)
        last_line = next(t for v, t in zip(long["values"], long["seen"]) if v[1])
        numbered = next(t for v, t in zip(long["values"], long["seen"]) if re.match(r"\[\d+\]", v[0]))
        check(shown >= last_line, f"the callback's output showed {last_line - shown:.0f} ms before the cell's last line")
        check(numbered - shown < 2000, f"the cell's prompt took {numbered - shown:.0f} ms after the callback's output")
        check(x.text().count("the callback ran") == 2, f"the button's cell shows {x.text()!r}")
        check("the callback ran" not in y.text(), f"the callback's output went to the long cell: {y.text()!r}")
        shot(self.nb, f"{self.name}-callbacks-after-the-long-cell", x, y)
        print(f"  the callbacks' output showed {shown - last_line:.0f} ms after the long cell's last line, "
              f"{numbered - shown:.0f} ms before its prompt's number")

    def slider_read_while_a_cell_runs(self):
        """A running loop reads a slider that has an OnChange while the user
        drags it: the loop sees where each drag ends, at once; the
        callbacks' output comes after the loop, under the slider's cell."""
        s = self.nb.run('level := widgets.NewIntSlider("level", 0, 0, 10)\n'
                        'level.OnChange(func(v int) { fmt.Println("level changed to", v) })\nlevel')
        loop = self.nb.new_cell('deadline := time.Now().Add(60 * time.Second)\n'
                                'for last := 0; last != 10 && time.Now().Before(deadline); {\n'
                                '\tif v := level.Value(); v != last {\n\t\tfmt.Println("the loop read level", v)\n\t\tlast = v\n\t}\n'
                                '\ttime.Sleep(5 * time.Millisecond)\n}')
        self.nb.run_cell(loop, wait=False)
        wait_for("the loop to run", lambda: loop.running(), 10)
        self.nb.drag(s.output(".noUi-handle").first, 40)
        v = wait_for("the readout to move", lambda: readout(s) != "0" and readout(s), 10)
        last_read = lambda: (re.findall(r"the loop read level (\d+)", loop.text()) or [None])[-1]
        wait_for(f"the running loop to read level {v}", lambda: last_read() == v, 10)
        check(loop.running() and "level changed to" not in s.text(), f"while the loop runs the slider's cell shows {s.text()!r}")
        shot(self.nb, f"{self.name}-slider-read-by-a-running-loop", s, loop)
        self.nb.drag(s.output(".noUi-handle").first, 200)
        wait_for("the readout at 10", lambda: readout(s) == "10", 10)
        loop.wait_done(20)
        check(last_read() == "10", f"the loop's last read: {last_read()}")
        s.wait_text("level changed to 10", 20)
        check("level changed to" not in loop.text(), f"the callbacks' output went to the loop's cell: {loop.text()!r}")
        shot(self.nb, f"{self.name}-slider-callbacks-after-the-loop", s, loop)

    def panicking_callback(self):
        """A callback that panics: its report (with the cell line) under its
        cell, and the session keeps its variables and widgets."""
        src = 'keep := 41\nboom := widgets.NewButton("Boom")\nboom.OnClick(func() {\n\tpanic("callback boom")\n})\nboom'
        c = self.nb.run(src)
        count = re.match(r"\[(\d+)\]", c.prompt()).group(1)
        c.output("button.widget-button").click()
        text = c.wait_text("callback boom", 30)
        check("panic in a widget callback: callback boom" in text, f"the report: {text!r}")
        check(f"cell [{count}] line 4" in text, f"the report does not point at cell [{count}] line 4: {text!r}")
        r = self.nb.run("keep + 1")
        check(r.text().strip().endswith("42") and not r.errors(), f"after the panic, keep + 1 shows {r.text()!r}")
        self.cells["button"].output("button.widget-button").click()
        self.cells["button"].wait_text("clicked 3 times", 30)
        shot(self.nb, f"{self.name}-panicking-callback", c, r)

    def reload_restores_widgets(self):
        """Save, reload the page: the widgets come back from the kernel (the
        jupyter.widget.control comm's request_states) with their values and
        their callbacks' output, and still work."""
        self.nb.save()
        before = dict(self.frames)
        self.nb.reload()
        n = self.cells["n"]
        wait_for("the slider back with its value", lambda: readout(n) == str(self.state["n"]), 60)
        wait_for("every widget restored", lambda: self.nb.page.locator("text=Loading widget").count() == 0, 30)
        broken = [c.index for c in self.nb.cells() if "Error displaying widget" in c.text()]
        check(not broken, f"after the reload cells {broken} show 'Error displaying widget'")
        sent = self.frames.get(("sent", "jupyter.widget.control"), 0) - before.get(("sent", "jupyter.widget.control"), 0)
        got = self.frames.get(("received", "update_states"), 0) - before.get(("received", "update_states"), 0)
        check(sent >= 1 and got >= 1, f"after the reload the page opened the control comm {sent} times and got update_states {got} times")
        # The front end waits 4 s for update_states, then falls back to one
        # request_state per widget (which restores them too). As this process
        # sees the frames, so only roughly.
        took = self.frames[("received", "update_states", "at")] - self.frames[("sent", "request_states", "at")]
        check(took < 4, f"update_states came {took:.1f} s after request_states: the front end fell back")
        check(self.cells["dropdown"].output("select").input_value() == "adam", "the dropdown lost its pick")
        check(self.cells["checkbox"].output("input[type=checkbox]").is_checked() is False, "the checkbox changed")
        check(self.cells["text"].output(".widget-text input").input_value() == "mnist-3", "the text box lost its text")
        n.wait_text(f"n changed to {self.state['n']}", 10)  # the callback's output, kept in its Output widget
        shot(self.nb, f"{self.name}-reloaded", n, self.cells["button"])
        self.nb.drag(n.output(".noUi-handle").first, -60)
        v = wait_for("the readout to move", lambda: readout(n) != str(self.state["n"]) and readout(n), 30)
        n.wait_text(f"n changed to {v}", 30)
        b = self.cells["button"]
        clicks = max(map(int, re.findall(r"clicked (\d+) times", b.text()))) + 1
        b.output("button.widget-button").click()
        b.wait_text(f"clicked {clicks} times", 30)
        r = self.nb.run('fmt.Println("n is", n.Value(), "after", clicks, "clicks")')
        check(f"n is {v} after {clicks} clicks" in r.text(), f"after the reload: {r.text()!r}")
        shot(self.nb, f"{self.name}-reloaded-and-used", n, self.cells["button"])
        print(f"  reload: control comm opened {sent}x, update_states {got}x, {took * 1000:.0f} ms after request_states; n {self.state['n']} -> {v}")

    def launched_workers_slider_and_stop(self):
        """Rank 0 of a two-worker launch shows a slider its training loop
        reads: the worker prints each value it sees as the user drags; the
        Stop button then ends the launch at a step, with no worker left."""
        train = self.nb.run('''func train(n int) int {
\tacc := accelerate.New(accelerate.Config{})
\tvar speed *widgets.IntSlider
\tif acc.IsMainProcess() {
\t\tspeed = widgets.NewIntSlider("speed", 1, 1, 10)
\t\twidgets.Display(speed)
\t}
\tds := data.NewTensorDataset(tensors.Zeros(n, 1), tensors.Zeros(n, 1))
\tloader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 1})
\tacc.Prepare(&loader)
\tsteps, seen := 0, 1
\tfor loader.Next() {
\t\tif steps == 0 {
\t\t\tfmt.Println("training started on rank", acc.ProcessIndex())
\t\t}
\t\tif speed != nil && speed.Value() != seen {
\t\t\tseen = speed.Value()
\t\t\tfmt.Println("step", steps, "rank 0 read speed", seen)
\t\t}
\t\tsteps++
\t\ttime.Sleep(2 * time.Millisecond)
\t}
\treturn steps*100 + seen
}''')
        check(not train.errors(), f"defining train: {train.text()!r}")
        c = self.nb.run('widgets.Display(notebook_launcher.StopButton())\n%accelerate launch --num_processes 2 train(200000)', wait=False)
        c.wait_text("training started on rank 0", 120)
        slider = c.output(".widget-slider")
        wait_for("rank 0's slider", lambda: slider.count() == 1 and slider.first.is_visible(), 30)
        self.nb.drag(c.output(".noUi-handle").first, 90)
        v = wait_for("the readout to move", lambda: readout(c) != "1" and readout(c), 30)
        wait_for(f"rank 0 to read speed {v}", lambda: re.findall(r"rank 0 read speed (\d+)", c.text())[-1:] == [v], 30)
        check(c.running(), "the launch ended by itself")
        shot(self.nb, f"{self.name}-worker-slider-read", c)
        stop = c.output("button.widget-button:has-text('Stop')")
        t0 = time.monotonic()
        stop.click()
        c.wait_text(re.compile(r"train ran on 2 workers"), 60)
        c.wait_done(60)
        took = time.monotonic() - t0
        res = c.locator.locator(".jp-OutputArea-executeResult").last.inner_text().strip()
        m = re.search(r"(\d+)$", res)
        check(m, f"the launch's result: {res!r}")
        steps, seen = divmod(int(m.group(1)), 100)
        check(str(seen) == v and 0 < steps < 100000, f"result {m.group(1)}: want steps*100+{v} with fewer than 100000 steps")
        check("stop requested" in c.text(), f"the cell does not say the stop was asked for: {c.text()[-300:]!r}")
        check(stop.is_disabled(), "the Stop button is still enabled")
        workers = [p for p in marked_processes(MARKER) if " __worker" in p[1]]
        check(not workers, f"workers left after the stop: {workers}")
        shot(self.nb, f"{self.name}-worker-launch-stopped", c)
        print(f"  rank 0 read speed {v}; the Stop button ended the launch {took:.1f} s after the click, at step {steps}")

    def checks(self, browser):
        since = len(browser.console)
        names = ["opens", "int_slider_drag", "button_clicks", "interact_reruns", "dropdown_pick", "checkbox_toggle",
                 "text_submit", "float_slider_step", "progress_widget_loop", "progress_bar_widget", "live_plot_widget",
                 "image_widget", "click_during_a_long_cell", "slider_read_while_a_cell_runs", "panicking_callback", "reload_restores_widgets",
                 "launched_workers_slider_and_stop"]
        out = [(f"{self.name}_{n}", getattr(self, n)) for n in names]
        out.append((f"{self.name}_logs_no_script_errors", lambda: no_script_errors(browser, since, self.name)))
        return out


def bar_percent(cell):
    w = cell.output(".widget-hprogress .progress-bar").first.evaluate("b => b.style.width")
    return float(w.rstrip("%") or 0)


def natural_size(cell):
    """The natural width and height of the last image the cell's outputs show."""
    return cell.output("img").last.evaluate("i => [i.complete ? i.naturalWidth : 0, i.naturalHeight]")


def main():
    apps = [a for a in sys.argv[1:] if a in ("lab", "notebook7")] or ["lab", "notebook7"]
    only = [a for a in sys.argv[1:] if a not in ("lab", "notebook7")]
    passed = failed = 0
    t0 = time.monotonic()
    with Browser() as browser:
        openers = {"lab": lambda: Lab.open(browser, SERVER), "notebook7": lambda: Notebook7.open(browser, SERVER)}
        for name in apps:
            app = WidgetChecks(name, openers[name])
            checks = [(n, fn) for n, fn in app.checks(browser)
                      if not only or n.endswith("_opens") or any(o in n for o in only)]
            p, f = run_checks(browser, SHOTS, checks, fatal=lambda n: n.endswith("_opens"))
            passed, failed = passed + p, failed + f
            try:
                SERVER.shutdown_kernels()
            except Exception as e:
                print("shutting the kernels down:", e)
            for page in browser.context.pages:
                page.close()
    print("screenshots:\n  " + "\n  ".join(SHOTS.taken))
    print(f"the checks took {time.monotonic() - t0:.0f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
