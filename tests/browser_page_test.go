package tests

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browserPage is one Chromium tab showing a classic Notebook page. Its
// methods fail the test with the page's state when something does not
// happen in time.
type browserPage struct {
	t        *testing.T
	ctx      context.Context // the tab; lives until cleanup
	deadline time.Time       // of the whole test
	console  *browserLog     // JavaScript exceptions and console errors
}

// openBrowserPage starts headless Chromium with a fresh profile. Cleanup
// takes a screenshot when the test failed, then stops the browser and every
// process it started.
func openBrowserPage(ctx context.Context, t *testing.T) *browserPage {
	t.Helper()
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(90 * time.Second)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browserChromium),
		chromedp.NoSandbox, // Chromium refuses to run as root otherwise
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// The network here is closed: no background fetches, no QUIC.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.WindowSize(1280, 1600),
		// No UserDataDir: chromedp makes a fresh profile directory, kills
		// Chromium's leftover children that use it and removes it.
	}
	// The browser must not share the test's deadline: chromedp ties its
	// life to the context of the first action.
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	console := &browserLog{}
	tabCtx, tabCancel := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			desc := d.Text
			if d.Exception != nil {
				desc += " " + d.Exception.Description
			}
			console.add("exception %s:%d: %s", d.URL, d.LineNumber, desc)
		case *runtime.EventConsoleAPICalled:
			if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
				return
			}
			var parts []string
			for _, a := range ev.Args {
				if len(a.Value) > 0 {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			console.add("console.%s: %s", ev.Type, strings.Join(parts, " "))
		}
	}))
	p := &browserPage{t: t, ctx: tabCtx, deadline: deadline, console: console}
	t.Cleanup(func() {
		tabCancel()
		allocCancel() // waits until Chromium and its children are gone
	})
	start := time.Now()
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start %s: %v", browserChromium, err)
	}
	t.Logf("started %s in %v", browserChromium, time.Since(start).Round(time.Millisecond))
	// Registered after the browser's cleanup, so it runs first.
	t.Cleanup(func() {
		if t.Failed() {
			p.saveFailureArtifacts()
		}
	})
	return p
}

// actionCtx bounds one browser action by the test's deadline.
func (p *browserPage) actionCtx() (context.Context, context.CancelFunc) {
	return context.WithDeadline(p.ctx, p.deadline)
}

// open navigates to url and installs the test's JavaScript helpers once
// the notebook's JavaScript has loaded.
func (p *browserPage) open(url string) {
	p.t.Helper()
	ctx, cancel := p.actionCtx()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		p.fatalf("open the notebook page: %v", err)
	}
	p.poll("the notebook's JavaScript to load", `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.events)`, 40*time.Second)
	p.eval(browserPageJS, nil)
}

// menu clicks a menu of the notebook's menu bar, then one of its items,
// with real mouse events, as a user does (e.g. Kernel → Interrupt).
func (p *browserPage) menu(menuLink, item string) {
	p.t.Helper()
	ctx, cancel := p.actionCtx()
	defer cancel()
	ctx, cancel2 := context.WithTimeout(ctx, 10*time.Second)
	defer cancel2()
	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(menuLink)),
		chromedp.Click(chromedp.CSS(item)),
	)
	if err != nil {
		p.fatalf("click menu %s → %s: %v", menuLink, item, err)
	}
}

// eval evaluates expr in the page and decodes its value into res (nil to
// ignore it).
func (p *browserPage) eval(expr string, res any) {
	p.t.Helper()
	if err := p.tryEval(expr, res); err != nil {
		p.fatalf("evaluate %s: %v", expr, err)
	}
}

func (p *browserPage) tryEval(expr string, res any) error {
	ctx, cancel := p.actionCtx()
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err != nil || res == nil {
		return err
	}
	return json.Unmarshal(raw, res)
}

// poll waits until expr is true in the page.
func (p *browserPage) poll(what, expr string, timeout time.Duration) {
	p.t.Helper()
	p.waitFor(what, timeout, func() (bool, string) {
		var ok bool
		if err := p.tryEval(expr, &ok); err != nil {
			return false, err.Error()
		}
		return ok, ""
	})
}

// waitFor calls cond every 100 ms until it reports true, and fails the
// test with cond's last explanation after timeout.
func (p *browserPage) waitFor(what string, timeout time.Duration, cond func() (bool, string)) {
	p.t.Helper()
	end := time.Now().Add(timeout)
	if end.After(p.deadline) {
		end = p.deadline
	}
	for {
		ok, why := cond()
		if ok {
			return
		}
		if time.Now().After(end) {
			p.fatalf("waited %v for %s: %s", timeout, what, why)
		}
		select {
		case <-p.ctx.Done():
			p.fatalf("waiting for %s: browser gone: %v", what, p.ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// kernelState is what the page knows about its kernel.
type kernelState struct {
	Loaded    bool   `json:"loaded"`
	Name      string `json:"name"`
	Connected bool   `json:"connected"`
	Ready     bool   `json:"ready"`
	Language  string `json:"language"`
	Indicator string `json:"indicator"`
	Display   string `json:"display"`
	Dialog    string `json:"dialog"`
	Info      string `json:"info"` // kernel_info_reply content as the page got it
}

// waitKernelReady waits until the page runs kernel k, connected and idle.
func (p *browserPage) waitKernelReady(k browserKernel, timeout time.Duration) {
	p.t.Helper()
	var st kernelState
	p.waitFor("the kernel to be ready and idle", timeout, func() (bool, string) {
		if err := p.tryEval(`goaccelTest.kernel()`, &st); err != nil {
			return false, err.Error()
		}
		ok := st.Loaded && st.Connected && st.Ready && st.Indicator == "kernel_idle_icon"
		return ok, fmt.Sprintf("%+v", st)
	})
	if st.Name != k.name || st.Language != k.language || st.Display != k.displayName {
		p.fatalf("notebook runs kernel %q (language %q, shown as %q), want %q (%q, %q); kernel_info_reply: %s",
			st.Name, st.Language, st.Display, k.name, k.language, k.displayName, st.Info)
	}
}

// cellOutput is one rendered output of a cell (a div.output_subarea).
type cellOutput struct {
	Class string `json:"class"`
	Text  string `json:"text"`
}

// cellState is a code cell as the page shows it.
type cellState struct {
	Index     int          `json:"index"`
	Prompt    any          `json:"prompt"` // execution count, "*" while queued or running
	Running   bool         `json:"running"`
	Finished  bool         `json:"finished"` // reply and idle status seen for its last request
	OutPrompt string       `json:"outPrompt"`
	GoBold    string       `json:"gobold"` // tag:text of #gobold inside its output area
	Outputs   []cellOutput `json:"outputs"`
	Model     any          `json:"model"` // the output area's nbformat JSON, for failure reports
}

// has reports whether an output has the class.
func (c cellState) has(class string) bool { return c.count(class) > 0 }

// count is the number of outputs with the class.
func (c cellState) count(class string) int {
	n := 0
	for _, o := range c.Outputs {
		if strings.Contains(" "+o.Class+" ", " "+class+" ") {
			n++
		}
	}
	return n
}

// text joins the text of the outputs with the class ("" for all).
func (c cellState) text(class string) string {
	var parts []string
	for _, o := range c.Outputs {
		if class == "" || strings.Contains(" "+o.Class+" ", " "+class+" ") {
			parts = append(parts, o.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// waitCellsDone waits until every cell in indices got its execute_reply and
// the idle status that ends its request, and returns their state.
func (p *browserPage) waitCellsDone(indices []int, timeout time.Duration) []cellState {
	p.t.Helper()
	var cs []cellState
	p.waitFor(fmt.Sprintf("cells %v to finish", indices), timeout, func() (bool, string) {
		idx, _ := json.Marshal(indices)
		if err := p.tryEval(fmt.Sprintf(`goaccelTest.cells(%s)`, idx), &cs); err != nil {
			return false, err.Error()
		}
		var pending []string
		for _, c := range cs {
			if c.Running || !c.Finished {
				pending = append(pending, fmt.Sprintf("cell %d (prompt %v, running %v, finished %v)", c.Index, c.Prompt, c.Running, c.Finished))
			}
		}
		return len(pending) == 0, strings.Join(pending, ", ")
	})
	return cs
}

// waitCellText waits until the cell shows want in an output with the class.
func (p *browserPage) waitCellText(index int, class, want string, timeout time.Duration) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("cell %d to show %q", index, want), timeout, func() (bool, string) {
		var cs []cellState
		if err := p.tryEval(fmt.Sprintf(`goaccelTest.cells([%d])`, index), &cs); err != nil {
			return false, err.Error()
		}
		got := cs[0].text(class)
		return strings.Contains(got, want), fmt.Sprintf("%s outputs: %q", class, got)
	})
}

// appendAndRun adds a code cell with src at the bottom, runs it and returns
// its index.
func (p *browserPage) appendAndRun(src string) int {
	p.t.Helper()
	var index int
	quoted, _ := json.Marshal(src)
	p.eval(fmt.Sprintf(`goaccelTest.appendAndRun(%s)`, quoted), &index)
	return index
}

// fatalf fails the test with the notebook's cells and the browser console.
func (p *browserPage) fatalf(format string, args ...any) {
	p.t.Helper()
	msg := fmt.Sprintf(format, args...)
	var dump []cellState
	if err := p.tryEval(`goaccelTest.cells(null)`, &dump); err == nil {
		raw, _ := json.MarshalIndent(dump, "", "  ")
		msg += "\ncells:\n" + string(raw)
	}
	if c := p.console.String(); c != "" {
		msg += "\nbrowser console:\n" + c
	}
	p.t.Fatal(msg)
}

// saveFailureArtifacts writes a screenshot and the page's HTML where they
// outlive the test's temporary directories, and logs the paths.
func (p *browserPage) saveFailureArtifacts() {
	dir := os.Getenv("GOACCEL_TEST_ARTIFACTS")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "goaccel-browser-failure-"); err != nil {
			p.t.Logf("no screenshot: %v", err)
			return
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("no screenshot: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("no screenshot: %v", err)
	} else if path := filepath.Join(dir, "browser-failure.png"); os.WriteFile(path, png, 0o644) == nil {
		p.t.Logf("screenshot of the failed page: %s", path)
	}
	html, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err == nil {
		if path := filepath.Join(dir, "browser-failure.html"); os.WriteFile(path, []byte(html), 0o644) == nil {
			p.t.Logf("HTML of the failed page: %s", path)
		}
	}
}

// browserPageJS defines window.goaccelTest, the page side of the test.
//
//go:embed testdata/browser/page.js
var browserPageJS string
