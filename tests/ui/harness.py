"""The UI harness: JupyterLab 4 and Notebook 7 driven in Debian's Chromium by
Playwright, as a user clicks and types.

tests/ui_test.go starts jupyter_server (the PyPI stack's `jupyter lab`, which
serves JupyterLab at /lab and Notebook 7 at /tree and /notebooks) on loopback
and runs tests/ui/ui_checks.py; a widget test can reuse everything here:

    with Browser() as browser:
        shots = Shots(os.environ["UI_ARTIFACTS"])
        lab = Lab.open(browser, server)                # JupyterLab, kernel specs loaded
        nb = lab.new_notebook("Go (goaccel)")          # the Launcher's tile: a new notebook
        c = nb.run('fmt.Println("hi")')                # types a new cell, Shift+Enter, waits
        assert "hi" in c.text()
        shots.take(nb.page, "hello", c.locator)        # NN-hello.png in the artifacts folder

Notebook7.open(browser, server).new_notebook("Go (goaccel)") gives the same
NotebookPage in Notebook 7. Every wait polls a condition with a deadline
(wait_for); none sleeps for a fixed time.
"""
import json
import os
import re
import time
import traceback
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# Chromium as root needs --no-sandbox; on this closed network it hangs on
# refused connections unless it makes none of its own.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--disable-dev-shm-usage", "--disable-breakpad",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]
VIEWPORT = {"width": 1400, "height": 1000}


class UIError(AssertionError):
    """A check that failed, with what the page showed."""


def wait_for(what, cond, timeout=30.0, interval=0.1):
    """Calls cond until it returns a true value, which it returns; after
    timeout seconds it raises UIError with cond's last value or exception."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            v = cond()
            if v:
                return v
            last = v
        except Exception as e:  # the page may be between states
            last = f"{type(e).__name__}: {e}"
        if time.monotonic() > deadline:
            raise UIError(f"waited {timeout:.0f} s for {what}; last: {last!r}")
        time.sleep(interval)


class Server:
    """The jupyter_server under test, as tests/ui_test.go describes it in
    the environment: UI_BASE_URL, UI_TOKEN, UI_ROOT (its root folder)."""

    def __init__(self, base_url=None, token=None, root=None):
        self.base_url = (base_url or os.environ["UI_BASE_URL"]).rstrip("/")
        self.token = token or os.environ["UI_TOKEN"]
        self.root = root or os.environ["UI_ROOT"]

    def url(self, path):
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}/{path.lstrip('/')}{sep}token={self.token}"

    def api(self, path, method="GET", body=None):
        req = urllib.request.Request(f"{self.base_url}/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def kernels(self):
        return self.api("kernels")

    def shutdown_kernels(self):
        """Shuts every kernel down (between checks), waiting until none runs."""
        for k in self.kernels():
            self.api(f"kernels/{k['id']}", method="DELETE")
        wait_for("every kernel to shut down", lambda: not self.kernels(), timeout=30)

    def put_notebook(self, name, nb):
        """Writes a notebook (a dict) into the server's root folder."""
        with open(os.path.join(self.root, name), "w") as f:
            json.dump(nb, f)


class Browser:
    """Debian's Chromium under Playwright (never a downloaded browser).
    Pages log JavaScript errors into self.console."""

    def __init__(self, executable=CHROMIUM):
        self.executable = executable
        self.console = []
        self.http_errors = []  # "STATUS METHOD URL" of each response over 399, to tell what a console's "Failed to load resource" was

    def __enter__(self):
        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(executable_path=self.executable, args=CHROMIUM_ARGS, headless=True)
        self.context = self.browser.new_context(viewport=VIEWPORT)
        self.context.set_default_timeout(15000)
        return self

    def __exit__(self, *exc):
        try:
            self.context.close()
            self.browser.close()
        finally:
            self._pw.stop()

    def new_page(self):
        page = self.context.new_page()
        self.watch(page)
        return page

    def watch(self, page):
        def on_console(m):
            if m.type == "error" and len(self.console) < 200:
                self.console.append(f"console.error: {m.text}")

        def on_error(e):
            if len(self.console) < 200:
                self.console.append(f"page error: {e}")
        def on_response(r):
            if r.status >= 400 and len(self.http_errors) < 200:
                self.http_errors.append(f"{r.status} {r.request.method} {r.url.split('?')[0]}")
        page.on("console", on_console)
        page.on("pageerror", on_error)
        page.on("response", on_response)


class Shots:
    """Numbered screenshots of each step in one folder (the test's artifacts)."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.n = 0
        self.taken = []

    def take(self, page, name, locator=None):
        """Saves the page (or the part locator shows, scrolled into view) as
        NN-name.png and returns its path."""
        self.n += 1
        path = os.path.join(self.folder, f"{self.n:02d}-{name}.png")
        if locator is not None:
            locator.scroll_into_view_if_needed()
            locator.screenshot(path=path)
        else:
            page.screenshot(path=path)
        self.taken.append(path)
        return path

    def take_around(self, page, name, *locators, margin=12):
        """Saves the part of the page that holds every locator's element
        (e.g. a cell and the completer popped up over it) as NN-name.png."""
        boxes = [b for b in (l.bounding_box() for l in locators) if b]
        if not boxes:
            return self.take(page, name)
        x0 = max(0, min(b["x"] for b in boxes) - margin)
        y0 = max(0, min(b["y"] for b in boxes) - margin)
        x1 = max(b["x"] + b["width"] for b in boxes) + margin
        y1 = max(b["y"] + b["height"] for b in boxes) + margin
        self.n += 1
        path = os.path.join(self.folder, f"{self.n:02d}-{name}.png")
        page.screenshot(path=path, clip={"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0})
        self.taken.append(path)
        return path


# --- the notebook, as JupyterLab 4 and Notebook 7 both render it ---

class Cell:
    """One cell of a NotebookPage, by its index."""

    def __init__(self, nb, index):
        self.nb = nb
        self.index = index

    @property
    def locator(self):
        return self.nb.panel.locator(".jp-Notebook .jp-Cell").nth(self.index)

    def prompt(self):
        """The input prompt as shown: "[3]:", "[*]:" or "[ ]:"."""
        return self.locator.locator(".jp-InputPrompt").first.inner_text().strip()

    def source(self):
        return self.nb.model(f"cells[{self.index}].model.sharedModel.getSource()")

    def outputs(self):
        """The cell's outputs as nbformat dicts (the model the page renders)."""
        return self.nb.model(f"cells[{self.index}].model.outputs.toJSON()")

    def text(self):
        """What the cell's output area shows, as text (widgets' outputs
        included: an Output widget nests an output area of its own)."""
        area = self.locator.locator(".jp-Cell-outputArea")
        return area.first.inner_text() if area.count() else ""

    def output(self, selector):
        """A locator for elements in the cell's outputs (a widget's DOM:
        ".widget-slider", "select")."""
        return self.locator.locator(f".jp-Cell-outputArea {selector}")

    def wait_text(self, want, timeout=30):
        """Waits until the cell's output shows want (a string, or a compiled
        regular expression); returns the text shown."""
        def shown():
            t = self.text()
            return t if (want.search(t) if isinstance(want, re.Pattern) else want in t) else None
        return wait_for(f"cell {self.index} to show {getattr(want, 'pattern', want)!r}", shown, timeout)

    def watch(self, name, js):
        """Records, from now on, what the JavaScript function js (of the
        cell's element) returns at each change of the cell's DOM: each
        distinct value (as JSON) with the time it was first seen and whether
        the cell was running then. watched(name) returns the record."""
        self.locator.evaluate("""(cell, [name, fn]) => {
            const f = eval(fn);
            const rec = {values: [], seen: [], running: [], samples: 0};
            const sample = () => {
                rec.samples++;
                let v;
                try { v = JSON.stringify(f(cell)) } catch (e) { v = JSON.stringify('error: ' + e) }
                if (!rec.values.includes(v)) {
                    const p = cell.querySelector('.jp-InputPrompt');
                    rec.values.push(v);
                    rec.seen.push(performance.now());
                    rec.running.push(!!p && p.innerText.includes('*'));
                }
            };
            sample();
            new MutationObserver(sample).observe(cell, {childList: true, subtree: true, attributes: true, characterData: true});
            window.uiWatch = window.uiWatch || {};
            window.uiWatch[name] = rec;
        }""", [name, js])

    def watched(self, name):
        """What watch(name, …) recorded: {values: [decoded values], seen:
        [ms], running: [bool], samples}."""
        rec = self.nb.page.evaluate("name => window.uiWatch[name]", name)
        rec["values"] = [json.loads(v) if v is not None else None for v in rec["values"]]
        return rec

    def errors(self):
        return [o for o in self.outputs() if o["output_type"] == "error"]

    def stream(self, name="stdout"):
        return "".join(o["text"] if isinstance(o["text"], str) else "".join(o["text"])
                       for o in self.outputs() if o["output_type"] == "stream" and o["name"] == name)

    def images(self):
        """Signatures (length:hash of src) of the <img> elements its outputs show."""
        return self.locator.locator(".jp-OutputArea-output img").evaluate_all(
            "els => els.map(e => { const s = e.src; let h = 0; for (let i = 0; i < s.length; i++) { h = (h * 31 + s.charCodeAt(i)) | 0 } return s.length + ':' + h })")

    def running(self):
        return self.prompt().startswith("[*]")

    def wait_done(self, timeout=60):
        """Waits until the cell ran (its prompt shows a number) and the kernel is idle."""
        wait_for(f"cell {self.index} to finish (prompt {self.prompt()!r})",
                 lambda: re.match(r"\[\d+\]", self.prompt()) and self.nb.kernel_status() == "idle", timeout)
        return self

    def click_editor(self):
        editor = self.locator.locator(".cm-content")
        editor.scroll_into_view_if_needed()
        editor.click()
        return editor


class NotebookPage:
    """A notebook open in a page of JupyterLab or Notebook 7. The app's
    object (window.jupyterapp, exposed by the server's
    expose_app_in_browser) is read only to tell what the page shows; every
    action is a click or a key press."""

    def __init__(self, page, app):
        self.page = page
        self.app = app  # "lab" or "notebook"

    @property
    def panel(self):
        return self.page.locator(".jp-NotebookPanel:visible").first

    def model(self, expr):
        """Evaluates expr on the current notebook widget's content (a Notebook)."""
        return self.page.evaluate(f"""() => {{
            const w = window.jupyterapp.shell.currentWidget;
            const nb = w && w.content;
            const cells = nb ? nb.widgets : [];
            return {expr};
        }}""")

    def session(self, expr):
        """Evaluates expr on the notebook's sessionContext (s)."""
        return self.page.evaluate(f"""() => {{
            const s = window.jupyterapp.shell.currentWidget.sessionContext;
            return {expr};
        }}""")

    def kernel_status(self):
        return self.session("s.kernelDisplayStatus")

    def kernel_name(self):
        return self.session("s.kernelDisplayName")

    def wait_kernel_idle(self, timeout=60, display_name="Go (goaccel)"):
        wait_for(f"the kernel {display_name!r} to be idle",
                 lambda: self.kernel_name() == display_name and self.kernel_status() == "idle", timeout)

    def cells(self):
        return [Cell(self, i) for i in range(self.panel.locator(".jp-Notebook .jp-Cell").count())]

    def cell(self, index):
        return Cell(self, index)

    def cell_with(self, text):
        """The first code cell whose source contains text."""
        i = self.model(f"cells.findIndex(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes({json.dumps(text)}))")
        if i < 0:
            raise UIError(f"no code cell contains {text!r}")
        return Cell(self, i)

    def menu(self, *path):
        """Clicks through the menu bar: menu("Run", "Run All Cells")."""
        self.page.locator(f".lm-MenuBar-item:has(.lm-MenuBar-itemLabel:text-is('{path[0]}'))").click()
        for label in path[1:]:
            self.page.locator(f".lm-Menu:visible .lm-Menu-item:has(.lm-Menu-itemLabel:text-is('{label}'))").last.click()

    def toolbar(self, command):
        """Clicks the notebook toolbar's button for a command (e.g.
        "notebook:interrupt-kernel", the ■ button)."""
        self.panel.locator(f".jp-Toolbar [data-command='{command}']").first.click()

    def dialog_accept(self, label=None, timeout=15):
        """Clicks the dialog's accept button (or the button labelled label)."""
        dlg = self.page.locator(".jp-Dialog")
        wait_for("a dialog", lambda: dlg.count() > 0 and dlg.first.is_visible(), timeout)
        if label:
            dlg.locator(f"button:has-text('{label}')").first.click()
        else:
            dlg.locator("button.jp-mod-accept").first.click()
        wait_for("the dialog to close", lambda: self.page.locator(".jp-Dialog").count() == 0, timeout)

    def last_cell(self):
        return Cell(self, self.panel.locator(".jp-Notebook .jp-Cell").count() - 1)

    def new_cell(self, source):
        """Enters source into the notebook's empty last cell, or into a new
        code cell below the last one (Escape to command mode, B), as a user
        does."""
        n = len(self.cells())
        last = self.last_cell()
        if last.source() == "" and not last.outputs() and last.prompt() == "[ ]:":
            c = last  # a new notebook's first cell, or the one Shift+Enter left below the last run
        else:
            last.click_editor()
            self.page.keyboard.press("Escape")
            self.page.keyboard.press("b")
            wait_for("a new cell", lambda: len(self.cells()) == n + 1)
            c = Cell(self, n)
        self.type_into(c, source)
        return c

    def type_into(self, cell, source):
        """Replaces the cell's text with source: a click in its editor,
        Control+A, Delete, then source entered as one input, as a paste
        does (key by key, the editor's bracket closing and auto-indent would
        change it)."""
        editor = cell.click_editor()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Delete")
        self.page.keyboard.insert_text(source)
        wait_for(f"cell {cell.index} to hold the typed text", lambda: cell.source() == source, timeout=10)
        return editor

    def run_cell(self, cell, timeout=60, wait=True):
        """Runs the cell with Shift+Enter in its editor."""
        cell.click_editor()
        before = cell.prompt()
        self.page.keyboard.press("Shift+Enter")
        if wait:
            wait_for(f"cell {cell.index} to start", lambda: cell.prompt() != before or cell.running(), timeout=10)
            cell.wait_done(timeout)
        return cell

    def run(self, source, timeout=60, wait=True):
        """Types source into a new cell at the end and runs it."""
        c = self.new_cell(source)
        return self.run_cell(c, timeout, wait)

    def drag(self, handle, dx, steps=12):
        """Drags handle (a slider's knob) dx pixels sideways with the mouse."""
        handle.scroll_into_view_if_needed()
        box = handle.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        self.page.mouse.move(x, y)
        self.page.mouse.down()
        self.page.mouse.move(x + dx, y, steps=steps)
        self.page.mouse.up()

    def dirty(self):
        return self.page.evaluate("window.jupyterapp.shell.currentWidget.context.model.dirty")

    def save(self, timeout=30):
        """Saves the notebook with Control+S (in command mode) and waits
        until it is saved."""
        self.last_cell().locator.locator(".jp-InputPrompt").first.click()  # the cell selected, in command mode
        self.page.keyboard.press("Control+s")
        dlg = self.page.locator(".jp-Dialog")
        # JupyterLab asks for a name at a notebook's first save: keep it.
        if wait_for("the notebook saved, or a dialog", lambda: "dialog" if dlg.count() else not self.dirty(), timeout) == "dialog":
            self.dialog_accept()
            wait_for("the notebook to be saved", lambda: not self.dirty(), timeout)

    def reload(self, timeout=90):
        """Reloads the page (the browser's reload: the app starts afresh and
        reopens the notebook on the kernel that still runs); returns once
        the notebook is open and its kernel idle."""
        self.page.reload()
        wait_for("the notebook to reopen", lambda: self.page.evaluate(
            "!!(window.jupyterapp && window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.sessionContext"
            " && window.jupyterapp.shell.currentWidget.content && window.jupyterapp.shell.currentWidget.content.widgets.length)"), timeout)
        self.wait_kernel_idle(timeout)
        return self

class Lab:
    """JupyterLab 4 at /lab."""

    def __init__(self, browser, server, page):
        self.browser, self.server, self.page = browser, server, page

    @classmethod
    def open(cls, browser, server, timeout=90):
        page = browser.new_page()
        page.goto(server.url("lab?reset"))  # a fresh workspace: the Launcher, nothing else open
        wait_for("JupyterLab's launcher with the kernel specs",
                 lambda: page.locator(".jp-LauncherCard").count() >= 2 and page.evaluate("!!window.jupyterapp"), timeout)
        return cls(browser, server, page)

    def launcher(self):
        """Shows the Launcher (File → New Launcher) and returns its panel."""
        launcher = self.page.locator(".jp-Launcher:visible")
        if launcher.count() == 0:
            self.page.locator(".lm-MenuBar-item:has(.lm-MenuBar-itemLabel:text-is('File'))").click()
            self.page.locator(".lm-Menu:visible .lm-Menu-item:has(.lm-Menu-itemLabel:text-is('New Launcher'))").click()
            wait_for("the launcher", lambda: launcher.count() > 0)
        return launcher.first

    def new_notebook(self, kernel_display_name, timeout=90):
        """Clicks the kernel's tile in the Launcher's Notebook section: a new
        notebook with that kernel; returns it once its kernel is idle."""
        tile = self.launcher().locator(f".jp-Launcher-section:has-text('Notebook') .jp-LauncherCard[title*='{kernel_display_name}'], "
                                       f".jp-Launcher-section:has-text('Notebook') .jp-LauncherCard:has-text('{kernel_display_name}')").first
        tile.click()
        nb = NotebookPage(self.page, "lab")
        nb.wait_kernel_idle(timeout, kernel_display_name)
        return nb

    def open_file(self, name, timeout=30):
        """Double-clicks name in the file browser (refreshed first)."""
        self.page.locator(".jp-FileBrowser .jp-ToolbarButtonComponent[data-command='filebrowser:refresh']").first.click()
        item = self.page.locator(f".jp-DirListing-item:has(.jp-DirListing-itemText span:text-is('{name}'))")
        wait_for(f"{name} in the file browser", lambda: item.count() > 0, timeout)
        item.first.dblclick()
        wait_for(f"{name} to open", lambda: self.page.evaluate(
            f"window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.context && window.jupyterapp.shell.currentWidget.context.path === {json.dumps(name)}"), timeout)
        return NotebookPage(self.page, "lab")

class Notebook7:
    """Notebook 7: the file tree at /tree, each notebook in its own tab."""

    def __init__(self, browser, server, page):
        self.browser, self.server, self.page = browser, server, page

    @classmethod
    def open(cls, browser, server, timeout=90):
        page = browser.new_page()
        page.goto(server.url("tree"))
        wait_for("Notebook 7's file tree", lambda: page.locator(".jp-DirListing").count() > 0 and page.evaluate("!!window.jupyterapp"), timeout)
        return cls(browser, server, page)

    def new_notebook(self, kernel_display_name, timeout=90):
        """New → the kernel's item: Notebook 7 opens it in a new tab; returns
        it once its kernel is idle."""
        with self.page.context.expect_page(timeout=timeout * 1000) as new_page:
            self.page.locator("[data-jp-item-name='new-dropdown'] .lm-MenuBar-item").first.click()
            self.page.locator(f".lm-Menu:visible .lm-Menu-item:has(.lm-Menu-itemLabel:text-is('{kernel_display_name}'))").click()
        page = new_page.value
        self.browser.watch(page)
        wait_for("the new notebook's page", lambda: page.evaluate("!!(window.jupyterapp && window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.sessionContext)"), timeout)
        nb = NotebookPage(page, "notebook")
        nb.wait_kernel_idle(timeout, kernel_display_name)
        # Notebook 7.6.5's tree page keeps a connection to the kernel it
        # started for the new notebook, and that connection handles comms
        # with no widget manager: it fails every widget's comm_open
        # ("Exception opening new comm") and closes the comm, so the kernel
        # forgets the widget (with ipykernel 7.4 as with goaccel). Reloading
        # the tree page drops that connection, as closing its tab would.
        self.page.reload()
        wait_for("Notebook 7's file tree again", lambda: self.page.locator(".jp-DirListing").count() > 0 and self.page.evaluate("!!window.jupyterapp"), timeout)
        return nb

    def open_file(self, name, timeout=90):
        """Opens the notebook in a new tab, as clicking it in the tree does."""
        return self.open_notebook(name, timeout)

    def open_notebook(self, name, timeout=90):
        page = self.browser.new_page()
        page.goto(self.server.url(f"notebooks/{name}"))
        wait_for(f"{name} to open", lambda: page.evaluate("!!(window.jupyterapp && window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.sessionContext)"), timeout)
        return NotebookPage(page, "notebook")


# --- running checks ---

def check(cond, msg):
    """Fails the check (UIError with msg) unless cond."""
    if not cond:
        raise UIError(msg)


def run_checks(browser, shots, checks, fatal=lambda name: False):
    """Runs checks, [(name, fn)], in order, printing PASS or FAIL and the
    time of each; a failed check leaves a screenshot of every open page
    (FAILED-name) and prints the browser console's last lines. After a
    failed check for which fatal(name) is true (the app did not open) the
    rest are skipped. Returns (passed, failed)."""
    passed = failed = 0
    for name, fn in checks:
        t0 = time.monotonic()
        try:
            fn()
            passed += 1
            print(f"PASS {name} ({time.monotonic() - t0:.1f}s)", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL {name} ({time.monotonic() - t0:.1f}s):\n{traceback.format_exc()}", flush=True)
            for page in browser.context.pages:
                try:
                    shots.take(page, f"FAILED-{name}")
                except Exception as e:
                    print("  no screenshot:", e)
            if browser.console:
                print("  browser console:\n    " + "\n    ".join(browser.console[-20:]), flush=True)
            if fatal(name):
                break
    return passed, failed


# Script errors Notebook 7.6.5's own pages log, with ipykernel 7.4 (which has
# a widget comm target) as with goaccel: its tree page's settings ('schema'),
# its notebook page's ipywidgets manager, on the comm_close that answers its
# control comm ("Comm not found" for the comm it closed itself), and, at
# times, its New menu opening a notebook in a new tab ('filebrowser:open-path'
# has no file browser there).
NOTEBOOK7_OWN_ERRORS = ("Cannot read properties of undefined (reading 'schema')", "page error: Disposed", "Comm not found for comm id",
                        "Command 'filebrowser:open-path' not registered")
# Fonts of Notebook 7.6.5's own bundle that its server refuses (403, "not in
# root static directory", to curl as to the page): a page showing a Button's
# icon asks for one (the icon still shows, from another of the font's files).
NOTEBOOK7_FORBIDDEN = re.compile(r"^403 GET .*/static/notebook/[0-9a-f]+\.woff2$")


def no_script_errors(browser, since, app):
    """Checks that the pages logged no JavaScript error since the console's
    entry since, but the app's own (app: "lab" or "notebook7")."""
    def own(e):
        if app != "notebook7":
            return False
        if "Failed to load resource: the server responded with a status of 403" in e:
            forbidden = [h for h in browser.http_errors if h.startswith("403 ")]
            return forbidden and all(NOTEBOOK7_FORBIDDEN.match(h) for h in forbidden)
        return any(k in e for k in NOTEBOOK7_OWN_ERRORS)
    errors = [e for e in browser.console[since:] if not own(e)]
    failed = "".join(f"\n  (HTTP {h})" for h in browser.http_errors) if any("Failed to load resource" in e for e in errors) else ""
    check(not errors, "the pages logged errors:\n  " + "\n  ".join(errors) + failed)


# --- the kernel's websocket, as the page sees it ---

def count_frames(page, needles):
    """Counts, from now on (a reload included), the kernel websocket frames
    the page sends and receives that hold each of needles (a comm's target
    name, a method): returns a dict {("sent"|"received", needle): count}
    that fills as frames pass, with {("sent"|"received", needle, "at"):
    time.monotonic() of the last such frame}."""
    counts = {}

    def on_websocket(ws):
        def counter(direction):
            def on_frame(payload):
                data = payload if isinstance(payload, (bytes, bytearray)) else str(payload).encode()
                for n in needles:
                    if n.encode() in data:
                        counts[(direction, n)] = counts.get((direction, n), 0) + 1
                        counts[(direction, n, "at")] = time.monotonic()
            return on_frame
        ws.on("framesent", counter("sent"))
        ws.on("framereceived", counter("received"))
    page.on("websocket", on_websocket)
    return counts


# --- processes: what the server's kernels started ---

def marked_processes(marker_env):
    """(pid, cmdline) of every process whose environment holds marker_env
    ("NAME=value"): the kernels and workers the server under test started."""
    want = marker_env.encode()
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                env = f.read().split(b"\0")
            if want not in env:
                continue
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{d}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
            if state != "Z":  # a zombie has exited
                found.append((int(d), cmd))
        except OSError:
            continue
    return found
