package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserShowsMNISTLivePlotUpdatedInPlace runs notebooks/mnist.ipynb in
// classic Notebook in headless Chromium and watches its training cell: the
// live loss plot must change while training runs (at least two different
// images) and stay one output, updated in place. It saves a screenshot of
// the finished notebook (in GOACCEL_TEST_ARTIFACTS, or a new directory under
// the system's temporary directory) and logs its path.
func TestBrowserShowsMNISTLivePlotUpdatedInPlace(t *testing.T) {
	requireBrowserTools(t)
	p := openExampleNotebook(t, "mnist.ipynb", 4*time.Minute)
	train := p.cellWith("epochs.Over(trainLoader")
	p.eval(fmt.Sprintf(`goaccelTest.watchImages(%d)`, train), nil)
	p.menu("#celllink", "#run_all_cells > a") // Cell → Run All
	distinct := p.watchLivePlot(train, 3*time.Minute)
	t.Logf("the live plot showed %d different images while the training cell ran", distinct)
	if distinct < 2 {
		p.fatalf("the live plot showed %d different image(s) during training, want at least 2 (redrawn in place while it trains)", distinct)
	}
	last := p.waitCellsDone([]int{p.lastCodeCell()}, 2*time.Minute)[0]
	if last.has("output_error") {
		p.fatalf("the notebook's checks failed: %s", last.text("output_error"))
	}
	p.scrollTo(train)
	p.saveScreenshot("mnist-live-plot.png")
}

// TestBrowserShowsDataParallelLaunchInItsCell runs notebooks/mnist_ddp.ipynb
// in classic Notebook in headless Chromium and watches the cell that runs
// `%accelerate launch --num_processes 2`: rank 0's live loss plot must
// change while the workers train (at least two different images) and stay
// one output, updated in place; the cell must show both ranks' printed
// lines (rank 1's prefixed), rank 0's one progress bar and the launch
// summary. It saves a screenshot of the finished notebook (in
// GOACCEL_TEST_ARTIFACTS, or a new directory under the system's temporary
// directory) and logs its path.
func TestBrowserShowsDataParallelLaunchInItsCell(t *testing.T) {
	requireBrowserTools(t)
	p := openExampleNotebook(t, "mnist_ddp.ipynb", 4*time.Minute)
	launch := p.cellWith("%accelerate launch --num_processes 2")
	p.eval(fmt.Sprintf(`goaccelTest.watchImages(%d)`, launch), nil)
	p.menu("#celllink", "#run_all_cells > a") // Cell → Run All
	distinct := p.watchLivePlot(launch, 3*time.Minute)
	t.Logf("rank 0's live plot showed %d different images while the launch cell ran", distinct)
	if distinct < 2 {
		p.fatalf("the live plot showed %d different image(s) during the launch, want at least 2 (redrawn in place while the workers train)", distinct)
	}
	c := p.waitCellsDone([]int{launch}, time.Minute)[0]
	if c.has("output_error") {
		p.fatalf("the launch failed: %s", c.text("output_error"))
	}
	out := c.text("output_stdout")
	for _, want := range []string{"[rank 1] process 1 of 2 on cpu", "process 0 of 2 on cpu", "test accuracy", "train ran on 2 workers"} {
		if !strings.Contains(out, want) {
			t.Errorf("the launch cell's printed output does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[rank 0]") || strings.Count(out, "[rank 1]") != 2 {
		t.Errorf("want rank 1's two lines prefixed [rank 1] and rank 0's unprefixed:\n%s", out)
	}
	// Rank 0's one progress bar, ended, and the launch's status table (every rank's 470 steps).
	if html := c.text("output_html"); c.count("output_html") != 2 || !strings.Contains(html, "470/470") ||
		strings.Count(html, "exited (exit status 0)") != 2 || strings.Count(html, "\t470\t") != 2 {
		t.Errorf("the launch cell shows %d HTML outputs (%q), want rank 0's one progress bar, ended at 470/470, and the status table of both ranks after 470 steps", c.count("output_html"), html)
	}
	last := p.waitCellsDone([]int{p.lastCodeCell()}, 2*time.Minute)[0]
	if last.has("output_error") || !strings.Contains(last.text("output_stdout"), "all mnist_ddp checks passed") {
		p.fatalf("the notebook's checks failed: %s", last.text(""))
	}
	p.scrollTo(launch)
	p.saveScreenshot("mnist-ddp-launch.png")
}

// openExampleNotebook serves notebooks/name from a fresh notebook server
// with goaccel installed and opens it in headless Chromium, its kernel
// connected and idle. budget bounds the test from the moment goaccel is
// built: a cold build on a busy machine can take minutes of its own.
func openExampleNotebook(t *testing.T, name string, budget time.Duration) *browserPage {
	t.Helper()
	dataDir := t.TempDir()
	installGoaccelKernel(t, dataDir)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	t.Cleanup(cancel)
	srv := startNotebookServer(t, dataDir)
	raw, err := os.ReadFile(filepath.Join("..", "notebooks", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(srv.notebookDir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	p := openBrowserPage(ctx, t)
	srv.waitReady(ctx, t)
	p.open(srv.notebookURL(name))
	p.waitKernelReady(goaccelBrowserKernel, 45*time.Second)
	return p
}

// cellWith is the index of the first code cell whose source contains text;
// it fails the test when there is none.
func (p *browserPage) cellWith(text string) int {
	p.t.Helper()
	var index int
	quoted, _ := json.Marshal(text)
	p.eval(fmt.Sprintf(`goaccelTest.cellWith(%s)`, quoted), &index)
	if index < 0 {
		p.fatalf("the notebook has no code cell containing %q", text)
	}
	return index
}

// watchLivePlot samples the image outputs of cell index every 100 ms until
// the cell has finished and returns how many different images it showed,
// counting those the page's observer recorded (goaccelTest.watchImages,
// called before the cell runs: a short training's redraws can come and go
// between two samples). It fails the test if the cell ever shows more than
// one image: a live plot is one output updated in place.
func (p *browserPage) watchLivePlot(index int, timeout time.Duration) int {
	p.t.Helper()
	seen := map[string]bool{}
	p.waitFor(fmt.Sprintf("cell %d to finish while watching its live plot", index), timeout, func() (bool, string) {
		var imgs []string
		if err := p.tryEval(fmt.Sprintf(`goaccelTest.images(%d)`, index), &imgs); err != nil {
			return false, err.Error()
		}
		if len(imgs) > 1 {
			p.fatalf("cell %d shows %d images at once; the live plot must update its one output in place", index, len(imgs))
		}
		for _, s := range imgs {
			seen[s] = true
		}
		var cs []cellState
		if err := p.tryEval(fmt.Sprintf(`goaccelTest.cells([%d])`, index), &cs); err != nil {
			return false, err.Error()
		}
		c := cs[0]
		return c.Finished && !c.Running, fmt.Sprintf("running %v, finished %v, %d images seen", c.Running, c.Finished, len(seen))
	})
	var recorded []string
	p.eval(fmt.Sprintf(`goaccelTest.seenImages(%d)`, index), &recorded)
	for _, s := range recorded {
		seen[s] = true
	}
	return len(seen)
}

// lastCodeCell is the index of the notebook's last code cell.
func (p *browserPage) lastCodeCell() int {
	p.t.Helper()
	var cs []cellState
	p.eval(`goaccelTest.cells(null)`, &cs)
	return cs[len(cs)-1].Index
}

// scrollTo scrolls the notebook so that cell index is at the top of the
// page (the notebook scrolls inside the window, so a screenshot shows only
// what is in view).
func (p *browserPage) scrollTo(index int) {
	p.t.Helper()
	p.eval(fmt.Sprintf(`Jupyter.notebook.scroll_to_cell(%d, 0), true`, index), nil)
}

// saveScreenshot writes a full-page screenshot where it outlives the test
// (GOACCEL_TEST_ARTIFACTS, or a new temporary directory) and logs the path.
func (p *browserPage) saveScreenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("GOACCEL_TEST_ARTIFACTS")
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "goaccel-browser-")
	} else {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		p.t.Errorf("screenshot: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100) /* 100: PNG, lossless */)
	if err != nil {
		p.t.Errorf("screenshot: %v", err)
		return
	}
	if !strings.HasPrefix(string(png), "\x89PNG") {
		p.t.Errorf("the screenshot is not a PNG image (%d bytes)", len(png))
		return
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Errorf("screenshot: %v", err)
		return
	}
	p.t.Logf("screenshot: %s (%d KB)", path, len(png)/1024)
}
