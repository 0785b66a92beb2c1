package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// exampleNotebooks must exist; each is executed and its outputs checked.
var exampleNotebooks = []string{"quickstart", "mnist", "mnist_ddp", "accumulation_mixed_precision", "checkpoint_resume", "char_gpt", "mnist_cnn", "finetune_text_classification"}

// notebookTimeout is the time a notebook may take where it is not the usual 10 minutes: the
// fine-tuning notebook trains MiniLM for 120 steps in two launches (about 90 s of compute on
// each of two cores, 6 to 10 minutes seen on a machine shared with other work).
var notebookTimeout = map[string]time.Duration{
	"finetune_text_classification": 20 * time.Minute,
}

// notebookEnv adds to the environment a notebook runs in (and skips the notebook when what it
// needs is missing).
var notebookEnv = map[string]func(t *testing.T) []string{
	"finetune_text_classification": finetuneEnv,
}

// maxNotebookBytes bounds an executed notebook: progress bars and live plots
// update their output in place, so outputs must not pile up.
const maxNotebookBytes = 2 << 20

// TestEveryNotebookExecutesWithNbconvert runs
// `jupyter nbconvert --to notebook --execute` of each stack on each
// notebooks/*.ipynb with the freshly built kernel. Cells tagged
// raises-exception may fail; any other error (the notebooks end with Go
// checks that panic) fails the test. The executed notebooks are then checked
// for what a reader should see.
func TestEveryNotebookExecutesWithNbconvert(t *testing.T) {
	notebooks, err := filepath.Glob("../notebooks/*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range exampleNotebooks {
		if !slices.Contains(notebooks, "../notebooks/"+want+".ipynb") {
			t.Errorf("notebooks/%s.ipynb is missing", want)
		}
	}
	dataDir := e2eKernel(t)
	forEachStack(t, nbconvertModules, func(t *testing.T, s jupyterStack) {
		outDir := t.TempDir()
		for _, nb := range notebooks {
			name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
			t.Run(name, func(t *testing.T) {
				var env []string
				if extra := notebookEnv[name]; extra != nil {
					env = extra(t)
				}
				start := time.Now()
				out := executeNotebook(t, s, dataDir, nb, outDir, env...)
				t.Logf("%s executed in %v (%d bytes)", name, time.Since(start).Round(time.Millisecond), len(out))
				if len(out) > maxNotebookBytes {
					t.Errorf("the executed notebook is %d bytes, want ≤ %d: outputs pile up instead of updating in place", len(out), maxNotebookBytes)
				}
				var doc executedNotebook
				if err := json.Unmarshal(out, &doc); err != nil {
					t.Fatalf("executed notebook is not JSON: %v", err)
				}
				if check := notebookChecks[name]; check != nil {
					check(t, doc)
				}
			})
		}
	})
}

// executeNotebook runs the stack's nbconvert on nb, with env added to the
// environment, and returns the executed notebook.
func executeNotebook(t *testing.T, s jupyterStack, dataDir, nb, outDir string, env ...string) []byte {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
	limit := 10 * time.Minute
	if l, ok := notebookTimeout[name]; ok {
		limit = l
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := []string{"nbconvert", "--to", "notebook", "--execute",
		"--ExecutePreprocessor.timeout=600", "--ExecutePreprocessor.kernel_name=goaccel",
		"--output-dir", outDir, "--output", name, nb}
	cmd := exec.CommandContext(ctx, s.command("jupyter"), args...)
	if _, err := os.Stat(s.command("jupyter")); err != nil {
		cmd = exec.CommandContext(ctx, s.python, append([]string{"-m"}, args...)...)
	}
	cmd.Env = s.env(append(launchEnv(t, dataDir), env...)) // launches keep their config and builds in temporary folders
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nbconvert --execute %s: %v\n%s", nb, err, log)
	}
	out, err := os.ReadFile(filepath.Join(outDir, name+".ipynb"))
	if err != nil {
		t.Fatalf("nbconvert wrote no executed notebook: %v\n%s", err, log)
	}
	return out
}

// executedNotebook is the part of nbformat 4 the checks read.
type executedNotebook struct {
	Cells []struct {
		CellType string          `json:"cell_type"`
		Source   json.RawMessage `json:"source"` // a string or a list of lines
		Outputs  []struct {
			OutputType string         `json:"output_type"`
			Name       string         `json:"name"` // of a stream
			Data       map[string]any `json:"data"`
			Text       any            `json:"text"` // a string or a list of lines
		} `json:"outputs"`
	} `json:"cells"`
}

// cellWith returns the index of the first code cell whose source contains s.
func (nb executedNotebook) cellWith(t *testing.T, s string) int {
	t.Helper()
	for i, c := range nb.Cells {
		var src string
		var lines []string
		if json.Unmarshal(c.Source, &lines) == nil {
			src = strings.Join(lines, "")
		} else {
			_ = json.Unmarshal(c.Source, &src)
		}
		if c.CellType == "code" && strings.Contains(src, s) {
			return i
		}
	}
	t.Fatalf("no code cell contains %q", s)
	return -1
}

// outputs counts the cell's outputs that carry the MIME type and whose
// content contains the text ("" matches any).
func (nb executedNotebook) outputs(cell int, mime, text string) int {
	n := 0
	for _, o := range nb.Cells[cell].Outputs {
		v, ok := o.Data[mime]
		if ok && strings.Contains(fmt.Sprint(v), text) {
			n++
		}
	}
	return n
}

// stream joins the text the cell wrote to the stream ("stdout", "stderr").
func (nb executedNotebook) stream(cell int, name string) string {
	var b strings.Builder
	for _, o := range nb.Cells[cell].Outputs {
		if o.OutputType != "stream" || o.Name != name {
			continue
		}
		switch v := o.Text.(type) {
		case string:
			b.WriteString(v)
		case []any:
			for _, l := range v {
				fmt.Fprint(&b, l)
			}
		}
	}
	return b.String()
}

// notebookChecks are what each example notebook must show once executed.
var notebookChecks = map[string]func(t *testing.T, nb executedNotebook){
	"quickstart": func(t *testing.T, nb executedNotebook) {
		if c := nb.cellWith(t, "plots.Line(losses)"); nb.outputs(c, "image/png", "") != 1 {
			t.Errorf("the one-call plot cell shows %d PNG images, want 1", nb.outputs(c, "image/png", ""))
		}
		if c := nb.cellWith(t, "progress.Range"); nb.outputs(c, "text/html", "goaccel-progress") != 1 {
			t.Errorf("the progress bar cell has %d HTML bars, want 1 updated in place", nb.outputs(c, "text/html", "goaccel-progress"))
		}
	},
	"mnist": func(t *testing.T, nb executedNotebook) {
		c := nb.cellWith(t, "epochs.Over(trainLoader")
		if n := nb.outputs(c, "text/html", "goaccel-progress"); n != 2 {
			t.Errorf("the training cell has %d progress bars, want 2 (epochs and batches), each updated in place", n)
		}
		if n := nb.outputs(c, "text/html", `value="2" max="2"`); n != 1 {
			t.Errorf("the epochs bar did not end at 2/2 (%d bars do)", n)
		}
		if n := nb.outputs(c, "text/plain", `<live plot "mnist-mlp">`); n != 1 || nb.outputs(c, "image/png", "") != 1 {
			t.Errorf("the training cell has %d live loss plots, want 1 updated in place, ending as a PNG", n)
		}
		if c := nb.cellWith(t, "Captions(captions...)"); nb.outputs(c, "image/png", "") != 1 {
			t.Error("the misclassified digits are not shown as an image")
		}
	},
	"mnist_ddp":                    checkMNISTDDP,
	"finetune_text_classification": checkFinetune,
	"mnist_cnn": func(t *testing.T, nb executedNotebook) {
		c := nb.cellWith(t, `progress.Over(trainLoader, "epoch 1")`)
		if n := nb.outputs(c, "text/html", `value="938" max="938"`); n != 1 {
			t.Errorf("the epoch's progress bar did not end at 938/938 steps (%d bars do)", n)
		}
		epoch := regexp.MustCompile(`epoch 1: 938 steps in ([\d.]+) s, test loss [\d.]+, accuracy (9\d\.\d\d)%`)
		out := nb.stream(c, "stdout")
		if m := epoch.FindStringSubmatch(out); m == nil {
			t.Errorf("the training cell printed %q, want the epoch's steps, time and accuracy", out)
		} else {
			t.Logf("PyTorch's MNIST example in the notebook: one epoch in %s s, test accuracy %s%%", m[1], m[2])
		}
		launch := nb.stream(nb.cellWith(t, "%accelerate launch --num_processes 2 -o d trainDDP"), "stdout")
		if !strings.Contains(launch, "trainDDP ran on 2 workers") || !strings.Contains(launch, "2 processes, 235 steps each") {
			t.Errorf("the data-parallel launch printed:\n%s", launch)
		}
		t.Log(strings.TrimSpace(nb.stream(nb.cellWith(t, "var resnet nn.Module"), "stdout")))
	},
	"char_gpt": func(t *testing.T, nb executedNotebook) {
		c := nb.cellWith(t, "bar := progress.Range(steps")
		if n := nb.outputs(c, "text/html", `value="1000" max="1000"`); n != 1 {
			t.Errorf("the training cell has %d step bars at 1000/1000, want 1 updated in place", n)
		}
		if n := nb.outputs(c, "text/plain", `<live plot "char-gpt">`); n != 1 || nb.outputs(c, "image/png", "") != 1 {
			t.Errorf("the training cell has %d live loss plots, want 1 updated in place, ending as a PNG", n)
		}
		t.Log(strings.TrimSpace(nb.stream(c, "stdout")))
		samples := nb.stream(nb.cellWith(t, "gpt.Generate("), "stdout")
		if !strings.Contains(samples, "--- sample 3\nfunc (b *Buffer) ") {
			t.Errorf("the samples cell printed %q, want three samples after the prompt", samples)
		}
		t.Log(samples)
	},
}

// checkMNISTDDP checks what the launch cell of mnist_ddp.ipynb shows: rank
// 0's one progress bar and one live plot, each updated in place (rank 1
// draws neither), the ranks' printed lines (rank 1's prefixed), the launch
// summary and rank 0's Metrics as the result; then the figures of the
// returned metrics.
func checkMNISTDDP(t *testing.T, nb executedNotebook) {
	c := nb.cellWith(t, "%accelerate launch --num_processes 2")
	if n := nb.outputs(c, "text/html", "goaccel-progress"); n != 1 {
		t.Errorf("the launch cell has %d progress bars, want rank 0's one, updated in place", n)
	}
	if n := nb.outputs(c, "text/html", `value="470" max="470"`); n != 1 {
		t.Errorf("the progress bar did not end at 470/470 steps (%d bars do)", n)
	}
	if n := nb.outputs(c, "text/plain", `<live plot "mnist-ddp">`); n != 1 || nb.outputs(c, "image/png", "") != 1 {
		t.Errorf("the launch cell has %d live loss plots, want rank 0's one, updated in place and ending as a PNG", n)
	}
	out := nb.stream(c, "stdout")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^process 0 of 2 on cpu: 235 batches`), // rank 0 unprefixed
		regexp.MustCompile(`(?m)^\[rank 1\] process 1 of 2 on cpu: 235 batches`),
		regexp.MustCompile(`(?m)^test accuracy 9\d\.\d\d% on 10000 images$`), // acc.Print: rank 0 only
		regexp.MustCompile(`(?m)^train ran on 2 workers \(cpu, cpu; interpreted\) in `),
	} {
		if !want.MatchString(out) {
			t.Errorf("the launch cell's stdout does not match %s:\n%s", want, out)
		}
	}
	if strings.Count(out, "test accuracy") != 1 || strings.Contains(out, "[rank 0]") {
		t.Errorf("acc.Print must print once, from rank 0, and rank 0's lines carry no prefix:\n%s", out)
	}
	if nb.outputs(c, "text/plain", "Metrics{2 processes, accuracy 9") != 1 {
		t.Error("the launch cell's result is not rank 0's Metrics")
	}
	for _, fig := range []string{"plots.LineXY(m.Steps, m.Loss)", "plots.Bar(m.Errors"} {
		if n := nb.outputs(nb.cellWith(t, fig), "image/png", ""); n != 1 {
			t.Errorf("the cell with %s shows %d PNG images, want 1", fig, n)
		}
	}
}
