#!/usr/bin/env python3
"""Widgets in the real UI: JupyterLab 4 and Notebook 7, served by
jupyter_server on loopback, driven in Debian's Chromium by Playwright, as a
user clicks: run a notebook of widgets, drag a slider, click a button, see
the output change (the callbacks' output under their cell, Interact's output
replaced); then click the Stop button of a long two-worker
`%accelerate launch` and see the cell end with rank 0's result.

Run by tests/widgets_ui_test.go with a Python that has jupyterlab 4.6,
notebook 7.6, jupyterlab_widgets 3.0.17, ipywidgets 8.1.9 and playwright
(GOACCEL_UI_PYTHON), JUPYTER_DATA_DIR pointing at the freshly built kernel and
UI_ARTIFACTS at the folder where the screenshots of each step go. The browser
is /usr/bin/chromium (GOACCEL_CHROMIUM), never a downloaded one. Prints
PASS/FAIL per check; exits 1 if any failed.
"""
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from playwright.sync_api import expect, sync_playwright

CHROMIUM = os.environ.get("GOACCEL_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = os.environ.get("UI_ARTIFACTS") or tempfile.mkdtemp(prefix="widgets-ui-")
TIMEOUT = 120_000  # ms: JupyterLab's first load on a busy two-core machine

CELLS = [
    'import (\n\t"fmt"\n\n\t"github.com/goaccel/goaccel/widgets"\n)\n'
    'n := widgets.NewIntSlider("n", 3, 0, 10)\n'
    'n.OnChange(func(v int) { fmt.Println("n changed to", v) })\n'
    'n',
    'clicks := 0\nb := widgets.NewButton("Click me")\n'
    'b.OnClick(func() { clicks++; fmt.Println("clicked", clicks, "times") })\n'
    'b',
    'w := widgets.NewIntSlider("w", 2, 0, 9)\n'
    'widgets.Interact(func() { fmt.Println("w squared is", w.Value()*w.Value()) }, w)',
]


STOP_CELLS = [
    'import (\n\t"fmt"\n\t"time"\n\n\t"github.com/goaccel/goaccel/accelerate"\n\t"github.com/goaccel/goaccel/data"\n'
    '\t"github.com/goaccel/goaccel/notebook_launcher"\n\t"github.com/goaccel/goaccel/tensors"\n'
    '\t"github.com/goaccel/goaccel/widgets"\n)\n'
    'func train(n int) int {\n'
    '\tacc := accelerate.New(accelerate.Config{})\n'
    '\tds := data.NewTensorDataset(tensors.Zeros(n, 1), tensors.Zeros(n, 1))\n'
    '\tloader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 1})\n'
    '\tacc.Prepare(&loader)\n'
    '\tsteps := 0\n'
    '\tfor loader.Next() {\n'
    '\t\tif steps == 0 {\n\t\t\tfmt.Println("training started on rank", acc.ProcessIndex())\n\t\t}\n'
    '\t\tsteps++\n\t\ttime.Sleep(2 * time.Millisecond)\n\t}\n'
    '\treturn steps\n}',
    'widgets.Display(notebook_launcher.StopButton())\n%accelerate launch --num_processes 2 train(200000)',
]


def notebook(path, cells=CELLS):
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "goaccel", "display_name": "Go (goaccel)", "language": "go"},
                       "language_info": {"name": "go"}},
          "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": src} for i, src in enumerate(cells)]}
    with open(path, "w") as f:
        json.dump(nb, f)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """jupyter_server with JupyterLab and Notebook 7 on loopback."""

    def __init__(self, root):
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.log = open(os.path.join(ARTIFACTS, "jupyter-server.log"), "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={root}",
             "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url("/api/status"), timeout=2)
                return
            except Exception:
                if self.proc.poll() is not None:
                    raise RuntimeError("jupyter lab exited; see jupyter-server.log")
                time.sleep(0.5)
        raise RuntimeError("jupyter lab did not answer in 120 s")

    def url(self, path):
        sep = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}{path}{sep}token={self.token}"

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except Exception:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


def shot(page, name):
    path = os.path.join(ARTIFACTS, name + ".png")
    page.screenshot(path=path, full_page=True)
    print(f"  screenshot {path}", flush=True)


def run_all(page):
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()


def drag(page, handle, dx):
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y, steps=12)
    page.mouse.up()


def kernel_idle(server, notebook, timeout=120):
    """Waits until the kernel of the notebook at path `notebook` has started
    and is idle."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for s in json.load(urllib.request.urlopen(server.url("/api/sessions"))):
            if s["path"] == notebook and s["kernel"]["execution_state"] == "idle":
                return
        time.sleep(0.5)
    raise AssertionError(f"the kernel of {notebook} did not start within {timeout}s")


def widgets_work(page, ui, server):
    """The checks in one UI, from a loaded notebook."""
    expect(page.get_by_text("Go (goaccel)").first).to_be_visible(timeout=TIMEOUT)
    kernel_idle(server, "widgets.ipynb")
    run_all(page)
    cells = page.locator(".jp-Cell.jp-CodeCell")
    slider = cells.nth(0).locator(".widget-slider").first
    expect(slider).to_be_visible(timeout=TIMEOUT)
    readout = cells.nth(0).locator(".widget-readout").first
    expect(readout).to_have_text("3", timeout=TIMEOUT)
    button = cells.nth(1).locator("button.widget-button", has_text="Click me")
    expect(button).to_be_visible(timeout=TIMEOUT)
    expect(cells.nth(2).get_by_text("w squared is 4")).to_be_visible(timeout=TIMEOUT)
    shot(page, f"{ui}-1-ran")

    # Drag the slider: the readout moves, and the callback's output shows under the cell.
    drag(page, cells.nth(0).locator(".noUi-handle").first, 120)
    expect(readout).not_to_have_text("3", timeout=30_000)
    value = readout.inner_text().strip()
    expect(cells.nth(0).get_by_text(f"n changed to {value}").first).to_be_visible(timeout=60_000)
    shot(page, f"{ui}-2-slider-dragged")

    # Click the button twice: its callback counts in the cell's output.
    button.click()
    expect(cells.nth(1).get_by_text("clicked 1 times")).to_be_visible(timeout=60_000)
    button.click()
    expect(cells.nth(1).get_by_text("clicked 2 times")).to_be_visible(timeout=60_000)
    shot(page, f"{ui}-3-button-clicked")

    # Interact: its output is replaced by the re-run's.
    drag(page, cells.nth(2).locator(".noUi-handle").first, 150)
    w = cells.nth(2).locator(".widget-readout").first
    expect(w).not_to_have_text("2", timeout=30_000)
    v = int(w.inner_text().strip())
    expect(cells.nth(2).get_by_text(f"w squared is {v * v}")).to_be_visible(timeout=60_000)
    expect(cells.nth(2).get_by_text("w squared is 4")).to_have_count(0)
    shot(page, f"{ui}-4-interact-rerun")


def stop_button_stops_a_launch(page, ui, server):
    """A Stop button shown before a long launch: clicked while the cell runs,
    every worker finishes its step and the cell ends with rank 0's result."""
    expect(page.get_by_text("Go (goaccel)").first).to_be_visible(timeout=TIMEOUT)
    kernel_idle(server, "stop.ipynb")
    run_all(page)
    cell = page.locator(".jp-Cell.jp-CodeCell").nth(1)
    stop = cell.locator("button.widget-button", has_text="Stop")
    expect(stop).to_be_visible(timeout=TIMEOUT)
    expect(cell.get_by_text("training started on rank 0")).to_be_visible(timeout=TIMEOUT)
    shot(page, f"{ui}-5-launch-running")
    t0 = time.monotonic()
    stop.click()
    expect(cell.get_by_text("stop requested")).to_be_visible(timeout=30_000)
    expect(cell.get_by_text(re.compile(r"train ran on 2 workers"))).to_be_visible(timeout=60_000)
    took = time.monotonic() - t0
    result = cell.locator(".jp-OutputArea-output[data-mime-type='text/plain']").last.inner_text().strip()
    assert result.isdigit() and 0 < int(result) < 100000, f"result {result!r}: want the steps rank 0 did before the stop"
    expect(stop).to_be_disabled()
    print(f"  the Stop button ended the launch {took:.1f} s after the click, at step {result} of 100000", flush=True)
    shot(page, f"{ui}-6-launch-stopped")


def main():
    root = tempfile.mkdtemp(prefix="widgets-ui-root-")
    notebook(os.path.join(root, "widgets.ipynb"))
    notebook(os.path.join(root, "stop.ipynb"), STOP_CELLS)
    server = Server(root)
    failed = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            # ?reset: JupyterLab opens only this notebook, not the tabs it last had.
            for ui, path, checks in (("jupyterlab", "/lab/tree/widgets.ipynb?reset", widgets_work),
                                     ("notebook7", "/notebooks/widgets.ipynb", widgets_work),
                                     ("jupyterlab-stop", "/lab/tree/stop.ipynb?reset", stop_button_stops_a_launch),
                                     ("notebook7-stop", "/notebooks/stop.ipynb", stop_button_stops_a_launch)):
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                t0 = time.monotonic()
                try:
                    page.goto(server.url(path), timeout=TIMEOUT)
                    checks(page, ui, server)
                    print(f"PASS {checks.__name__} in {ui} ({time.monotonic() - t0:.1f}s)", flush=True)
                except Exception:
                    failed += 1
                    print(f"FAIL {checks.__name__} in {ui}:\n{traceback.format_exc()}", flush=True)
                    try:
                        shot(page, f"{ui}-failed")
                    except Exception:
                        pass
                finally:
                    # Shut the kernel down so the next UI starts its own.
                    for s in json.load(urllib.request.urlopen(server.url("/api/sessions"))):
                        req = urllib.request.Request(server.url(f"/api/sessions/{s['id']}"), method="DELETE")
                        urllib.request.urlopen(req)
                    page.close()
            browser.close()
    finally:
        server.stop()
    print(f"screenshots in {ARTIFACTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
