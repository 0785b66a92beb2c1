package tests

import (
	"context"
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
	dataDir := t.TempDir()
	installGoaccelKernel(t, dataDir)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv := startNotebookServer(t, dataDir)
	raw, err := os.ReadFile("../notebooks/mnist.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(srv.notebookDir, "mnist.ipynb"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	p := openBrowserPage(ctx, t)
	srv.waitReady(ctx, t)
	p.open(srv.notebookURL("mnist.ipynb"))
	p.waitKernelReady(goaccelBrowserKernel, 45*time.Second)

	var train int
	p.eval(`goaccelTest.cellWith("epochs.Over(trainLoader")`, &train)
	if train < 0 {
		p.fatalf("notebooks/mnist.ipynb has no training cell (one with epochs.Over(trainLoader)")
	}
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
	p.saveScreenshot("mnist-live-plot.png")
}

// watchLivePlot samples the image outputs of cell index every 100 ms until
// the cell has finished and returns how many different images it showed.
// It fails the test if the cell ever shows more than one image: a live plot
// is one output updated in place.
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
	return len(seen)
}

// lastCodeCell is the index of the notebook's last code cell.
func (p *browserPage) lastCodeCell() int {
	p.t.Helper()
	var cs []cellState
	p.eval(`goaccelTest.cells(null)`, &cs)
	return cs[len(cs)-1].Index
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
