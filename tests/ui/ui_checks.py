"""goaccel in the real UI: JupyterLab 4 and Notebook 7, driven in Debian's
Chromium by Playwright as a user clicks and types (harness.py).

Run by tests/ui_test.go, which starts the PyPI stack's jupyter_server on
loopback with goaccel's kernelspec and passes UI_BASE_URL, UI_TOKEN, UI_ROOT
(the server's root folder, holding mnist_ddp.ipynb), UI_ARTIFACTS (where the
screenshots go) and UI_MARKER (NAME=value in the environment of every
process the server starts).

    python ui_checks.py [lab|notebook7 ...] [CHECK ...]   (default: both apps, every check)

Prints PASS/FAIL per check, each screenshot's path, and "N passed, N failed".
"""
import json
import os
import re
import sys
import time

from harness import Browser, Lab, Notebook7, Server, Shots, check, marked_processes, no_script_errors, run_checks, wait_for

KERNEL = "Go (goaccel)"
SERVER = Server()
SHOTS = Shots(os.environ["UI_ARTIFACTS"])
MARKER = os.environ["UI_MARKER"]
# How long an interrupted launch may take to stop, from the click on ■ to its
# cell's error (the bound).
INTERRUPT_BOUND = 2.0


# --- mnist_ddp.ipynb: Run All, the launch cell watched while it trains ---

WATCH_JS = """(cell) => {
  // Records what the launch cell shows while it runs: each distinct progress
  // bar text and image, and the most bars and images shown at once.
  const log = {bars: [], images: [], maxBars: 0, maxImages: 0, samples: 0};
  const hash = (s) => { let h = 0; for (let i = 0; i < s.length; i++) { h = (h * 31 + s.charCodeAt(i)) | 0 } return s.length + ':' + h };
  const sample = () => {
    log.samples++;
    const bars = cell.querySelectorAll('.jp-OutputArea-output .goaccel-progress');
    const imgs = cell.querySelectorAll('.jp-OutputArea-output img');
    log.maxBars = Math.max(log.maxBars, bars.length);
    log.maxImages = Math.max(log.maxImages, imgs.length);
    bars.forEach(b => { const t = b.innerText.trim(); if (!log.bars.includes(t)) log.bars.push(t) });
    imgs.forEach(i => { const h = hash(i.src); if (!log.images.includes(h)) log.images.push(h) });
  };
  new MutationObserver(sample).observe(cell, {childList: true, subtree: true, attributes: true, characterData: true});
  window.goaccelWatch = log;
}"""


def without_kernelspec(path):
    """The notebook with no kernel or language named, so that opening it
    asks for a kernel (with language_info "go" JupyterLab would start the
    one Go kernel by itself)."""
    with open(path) as f:
        nb = json.load(f)
    nb["metadata"].pop("kernelspec", None)
    nb["metadata"].pop("language_info", None)
    return nb


def run_mnist_ddp(app, name):
    """Opens mnist_ddp.ipynb, picks Go (goaccel) in the kernel dialog, runs
    all cells and checks the launch cell while it trains and after."""
    copy = f"mnist_ddp_{name}.ipynb"
    SERVER.put_notebook(copy, without_kernelspec(os.path.join(SERVER.root, "mnist_ddp.ipynb")))
    nb = app.open_file(copy)
    page = nb.page
    # No kernel in the notebook's metadata: JupyterLab and Notebook 7 ask.
    dlg = page.locator(".jp-Dialog")
    wait_for("the kernel selection dialog", lambda: dlg.count() > 0 and dlg.first.is_visible(), 60)
    dlg.locator("select").first.select_option(label=KERNEL)
    SHOTS.take(page, f"{name}-mnist-ddp-select-kernel", dlg.first.locator(".jp-Dialog-content"))
    nb.dialog_accept("Select")
    nb.wait_kernel_idle(90, KERNEL)

    launch = nb.cell_with("%accelerate launch --num_processes 2")
    launch.locator.evaluate(WATCH_JS)
    last = nb.cells()[-1]
    nb.menu("Run", "Run All Cells")
    # A screenshot mid-training: the bar between its ends, the plot drawn.
    mid = wait_for("the progress bar to show training under way", lambda: re.search(
        r"\b([1-9]\d*)/470\b", launch.locator.inner_text()) and launch.images() and launch.locator, 180)
    launch.locator.scroll_into_view_if_needed()
    SHOTS.take(page, f"{name}-mnist-ddp-training", mid)
    wait_for("the last cell to run", lambda: re.match(r"\[\d+\]", last.prompt()) and nb.kernel_status() == "idle", 300)
    log = page.evaluate("window.goaccelWatch")

    out = launch.stream("stdout")
    problems = []
    if launch.errors():
        problems.append(f"the launch failed: {launch.errors()[0]['evalue']}")
    if log["maxBars"] != 1 or len(log["bars"]) < 2:
        problems.append(f"progress bar: {log['maxBars']} shown at once (want 1), {len(log['bars'])} distinct states (want ≥ 2): not updated in place")
    if not any("470/470" in b for b in log["bars"]):
        problems.append(f"the progress bar never showed 470/470: {log['bars'][-3:]}")
    if log["maxImages"] != 1 or len(log["images"]) < 2:
        problems.append(f"live loss plot: {log['maxImages']} images at once (want 1), {len(log['images'])} distinct (want ≥ 2): not redrawn in place")
    for want in (r"(?m)^process 0 of 2 on cpu: 235 batches", r"(?m)^\[rank 1\] process 1 of 2 on cpu: 235 batches",
                 r"(?m)^test accuracy 9\d\.\d\d% on 10000 images$", r"(?m)^train ran on 2 workers \(cpu, cpu; interpreted\) in "):
        if not re.search(want, out):
            problems.append(f"the launch cell's stdout lacks {want}")
    if "[rank 0]" in out:
        problems.append("rank 0's lines are prefixed")
    shown = launch.locator.inner_text()
    if "[rank 1] process 1 of 2" not in shown:
        problems.append("the page does not show rank 1's prefixed line")
    launch.locator.scroll_into_view_if_needed()
    SHOTS.take(page, f"{name}-mnist-ddp-launch-done", launch.locator)
    for fig in ("plots.LineXY(m.Steps, m.Loss)", "plots.Bar(m.Errors"):
        c = nb.cell_with(fig)
        if len(c.images()) != 1:
            problems.append(f"the cell with {fig} shows {len(c.images())} images, want 1")
        SHOTS.take(page, f"{name}-mnist-ddp-{'loss' if 'Loss' in fig else 'errors'}-plot", c.locator)
    if "all mnist_ddp checks passed" not in last.stream("stdout") or last.errors():
        problems.append(f"the notebook's own checks: {last.text()[:300]!r}")
    print(f"  launch cell: {len(log['bars'])} progress states, {len(log['images'])} plot images, {log['samples']} DOM changes seen")
    check(not problems, "; ".join(problems))
    return nb


# --- one scratch notebook per app for the rest ---

TRAIN_FOREVER = '''import (
\t"fmt"
\t"os"

\t"github.com/goaccel/goaccel/accelerate"
\t"github.com/goaccel/goaccel/tensors"
)

func trainForever(dir string) {
\tacc := accelerate.New(accelerate.Config{})
\tos.WriteFile(fmt.Sprintf("%s/pid-%s", dir, os.Getenv("RANK")), []byte(fmt.Sprint(os.Getpid())), 0o644)
\tfmt.Println("training until interrupted")
\tw := tensors.Randn(64, 64)
\tfor {
\t\tw = w.MatMul(w.Transpose(0, 1)).MulScalar(1e-3)
\t\tacc.WaitForEveryone()
\t}
}

keep := 41'''


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def interrupt_launch(nb, name):
    """■ stops a long %accelerate launch within INTERRUPT_BOUND seconds,
    no worker is left, and the next cell runs with the session's state."""
    # In the server's root folder, where the kernel and its workers run: the
    # cell names it relatively.
    rel = f"interrupt-{name}"
    folder = os.path.join(SERVER.root, rel)
    os.makedirs(folder, exist_ok=True)
    c = nb.run(TRAIN_FOREVER, timeout=120)
    check(not c.errors(), f"defining trainForever failed: {c.text()}")
    launch = nb.run(f'%accelerate launch --num_processes 2 trainForever("{rel}")', wait=False)
    pids = wait_for("both workers to start", lambda: (lambda fs: [int(open(os.path.join(folder, f)).read()) for f in fs] if len(fs) == 2 else None)(
        [f for f in os.listdir(folder) if f.startswith("pid-")]), 120)
    wait_for("the workers' first line in the cell", lambda: "training until interrupted" in launch.text(), 30)
    SHOTS.take(nb.page, f"{name}-launch-running", launch.locator)
    t0 = time.monotonic()
    nb.toolbar("notebook:interrupt-kernel")  # the ■ button
    wait_for("the interrupted launch to show its error", lambda: launch.errors(), 30, interval=0.02)
    took = time.monotonic() - t0
    launch.wait_done(30)
    left = [p for p in pids if alive(p)]
    workers = [p for p in marked_processes(MARKER) if " __worker" in p[1]]
    SHOTS.take(nb.page, f"{name}-launch-interrupted", launch.locator)
    err = launch.errors()[0]
    print(f"  interrupt: the launch cell showed its error {took:.2f} s after the click")
    check("nterrupt" in err["ename"] + err["evalue"], f"the interrupted cell's error: {err['ename']}: {err['evalue']}")
    check("restarted" not in err["evalue"], f"the kernel had to kill its executor: {err['evalue']}")
    check(not left and not workers, f"workers left after the interrupt: pids {left}, processes {workers}")
    check(took <= INTERRUPT_BOUND, f"the launch stopped {took:.2f} s after the click, want ≤ {INTERRUPT_BOUND} s")
    after = nb.run("keep + 1")
    check(after.text().strip().endswith("42") and not after.errors(), f"the cell after the interrupt: {after.text()!r}")


def restart(nb, name):
    """Kernel → Restart Kernel…, Restart: a fresh session (the notebook's
    variables gone), and cells run again."""
    nb.menu("Kernel", "Restart Kernel…")
    SHOTS.take(nb.page, f"{name}-restart-dialog", nb.page.locator(".jp-Dialog .jp-Dialog-content").first)
    nb.dialog_accept("Restart")
    wait_for("the kernel to restart", lambda: nb.kernel_status() in ("restarting", "starting", "idle"), 30)
    nb.wait_kernel_idle(60, KERNEL)
    gone = nb.run("keep")
    check(gone.errors() and "undefined: keep" in gone.errors()[0]["evalue"], f"after a restart `keep` should be undefined: {gone.text()!r}")
    c = nb.run('fmt.Println("fresh session")\nx := 1\nx')
    check("fresh session" in c.text() and c.prompt() == "[2]:", f"after the restart: prompt {c.prompt()!r}, output {c.text()!r}")
    SHOTS.take_around(nb.page, f"{name}-restarted", gone.locator, c.locator)


def tab_completion(nb, name):
    """Tab after `strings.` lists the package's members; after a string with
    characters outside the BMP (UTF-16 surrogate pairs in the browser), Tab
    completes `strings.ToUpp` in place."""
    c = nb.new_cell("strings.")
    editor = c.click_editor()
    nb.page.keyboard.press("End")
    nb.page.keyboard.press("Tab")
    completer = nb.page.locator(".jp-Completer:visible").first
    items = wait_for("the completer's list", lambda: completer.is_visible() and completer.locator(".jp-Completer-item").all_inner_texts(), 20)
    SHOTS.take_around(nb.page, f"{name}-tab-completion", c.locator, completer)
    names = [re.split(r"\s", t.strip())[0] for t in items]
    check({"Split", "ToUpper", "Contains"} <= set(names), f"the completer lists {names[:20]}")
    nb.page.keyboard.press("Escape")

    src = 's := "😀 naïve 𝔊o"\nu := strings.ToUpp'
    nb.type_into(c, src)
    editor.click()
    nb.page.keyboard.press("Control+End")
    nb.page.keyboard.press("Tab")
    # ToUpper and ToUpperSpecial share the prefix: the completer inserts it or lists both.
    want = src.replace("ToUpp", "ToUpper")
    wait_for("Tab to complete ToUpp", lambda: c.source().startswith(want) or completer.is_visible(), 20)
    if completer.is_visible():
        completer.locator(".jp-Completer-item:has-text('ToUpperSpecial')").first.wait_for()
        nb.page.keyboard.press("Enter")  # the first item, ToUpper
    wait_for("the completion in place", lambda: c.source() in (want, want + "Special"), 10)
    SHOTS.take(nb.page, f"{name}-completion-after-emoji", c.locator)
    check(c.source() == want, f"completion after non-BMP characters left {c.source()!r}, want {want!r}")


def shift_tab_doc(nb, name):
    """Shift+Tab on strings.Split shows its signature and doc comment."""
    c = nb.new_cell("parts := strings.Split")
    c.click_editor()
    nb.page.keyboard.press("Control+End")
    nb.page.keyboard.press("Shift+Tab")
    tip = nb.page.locator(".jp-Tooltip:visible").first
    text = wait_for("the tooltip", lambda: tip.is_visible() and tip.inner_text(), 20)
    SHOTS.take_around(nb.page, f"{name}-shift-tab-doc", c.locator, tip)
    nb.page.keyboard.press("Escape")
    check("func Split(s, sep string) []string" in text and "slices" in text, f"the tooltip shows {text[:300]!r}")


def stdin_box(nb, name):
    """A cell reading os.Stdin gets what is typed in the UI's input box."""
    c = nb.run('fmt.Print("your name: ")\nline, _ := bufio.NewReader(os.Stdin).ReadString(\'\\n\')\nfmt.Println("hello,", strings.TrimSpace(line))', wait=False)
    box = c.locator.locator(".jp-Stdin-input")
    wait_for("the input box", lambda: box.count() > 0 and box.first.is_visible(), 30)
    box.first.click()
    nb.page.keyboard.type("gopher")
    SHOTS.take(nb.page, f"{name}-stdin-typed", c.locator)
    nb.page.keyboard.press("Enter")
    c.wait_done(30)
    SHOTS.take(nb.page, f"{name}-stdin-answered", c.locator)
    check("hello, gopher" in c.text() and not c.errors(), f"the cell shows {c.text()!r}")


def error_traceback(nb, name):
    """A failing cell shows one error, pointing at the cell line."""
    c = nb.run('x := 1\n_ = x\npanic("boom on line three")')
    SHOTS.take(nb.page, f"{name}-error", c.locator)
    errs = c.errors()
    check(len(errs) == 1 and len(c.outputs()) == 1, f"{len(errs)} errors in {len(c.outputs())} outputs, want one error alone")
    shown = c.text()
    check("boom on line three" in shown and "line 3" in shown, f"the error shows {shown!r}")
    check(shown.count("boom on line three") <= 2, f"the traceback repeats itself: {shown!r}")


def first_cells(nb, name):
    """Printed text and a result with its Out prompt."""
    c = nb.run('fmt.Println("hello from Go")\nanswer := 6 * 7\nanswer')
    SHOTS.take(nb.page, f"{name}-first-cell", c.locator)
    outs = c.outputs()
    check([o["output_type"] for o in outs] == ["stream", "execute_result"], f"outputs {outs}")
    check("hello from Go" in c.text() and c.text().strip().endswith("42"), f"the cell shows {c.text()!r}")


def app_checks(name, opener):
    """The checks of one app (name: lab or notebook7), in order."""
    state = {}

    def opened():
        app = state["app"] = opener()
        SHOTS.take(app.page, f"{name}-opened")
        return app

    def scratch():
        if "nb" not in state:
            state["nb"] = state["app"].new_notebook(KERNEL)
            SHOTS.take(state["nb"].page, f"{name}-new-notebook")
        return state["nb"]

    checks = [
        (f"{name}_opens_and_offers_goaccel", lambda: opened()),
        (f"{name}_runs_mnist_ddp", lambda: run_mnist_ddp(state["app"], name)),
        (f"{name}_prints_and_shows_a_result", lambda: first_cells(scratch(), name)),
        (f"{name}_tab_completes", lambda: tab_completion(scratch(), name)),
        (f"{name}_shift_tab_shows_a_doc", lambda: shift_tab_doc(scratch(), name)),
        (f"{name}_stdin_box", lambda: stdin_box(scratch(), name)),
        (f"{name}_error_points_at_the_line", lambda: error_traceback(scratch(), name)),
        (f"{name}_interrupts_a_launch", lambda: interrupt_launch(scratch(), name)),
        (f"{name}_restarts", lambda: restart(scratch(), name)),
    ]
    return checks


def main():
    apps = [a for a in sys.argv[1:] if a in ("lab", "notebook7")] or ["lab", "notebook7"]
    only = [a for a in sys.argv[1:] if a not in ("lab", "notebook7")]
    failed = passed = 0
    with Browser() as browser:
        openers = {"lab": lambda: Lab.open(browser, SERVER), "notebook7": lambda: Notebook7.open(browser, SERVER)}
        for name in apps:
            since = len(browser.console)
            checks = app_checks(name, openers[name]) + [(f"{name}_logs_no_script_errors", lambda: no_script_errors(browser, since, name))]
            checks = [(n, fn) for n, fn in checks if not only or n.endswith("_opens_and_offers_goaccel") or any(o in n for o in only)]
            p, f = run_checks(browser, SHOTS, checks, fatal=lambda n: n.endswith("_opens_and_offers_goaccel"))
            passed, failed = passed + p, failed + f
            try:
                SERVER.shutdown_kernels()
            except Exception as e:
                print("shutting the kernels down:", e)
    print("screenshots:\n  " + "\n  ".join(SHOTS.taken))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
