package accelerate

import (
	"encoding/json"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/trackerenv"
)

// tbReadScript loads a run folder with TensorBoard's own EventAccumulator (everything kept:
// size guidance 0) and prints its scalars, images, text tensors and the HParams plugin's
// session start as JSON.
const tbReadScript = `
import json, sys
from tensorboard.backend.event_processing import event_accumulator as ea
from tensorboard.plugins.hparams import plugin_data_pb2
from tensorboard.util import tensor_util
acc = ea.EventAccumulator(sys.argv[1], size_guidance={ea.SCALARS: 0, ea.IMAGES: 0, ea.TENSORS: 0})
acc.Reload()
tags = acc.Tags()
out = {"scalars": {}, "images": {}, "texts": {}, "hparams": {}}
for tag in tags["scalars"]:
    out["scalars"][tag] = [[e.wall_time, e.step, e.value] for e in acc.Scalars(tag)]
for tag in tags["images"]:
    out["images"][tag] = [[e.step, e.width, e.height, len(e.encoded_image_string)] for e in acc.Images(tag)]
for tag in tags["tensors"]:
    if acc.SummaryMetadata(tag).plugin_data.plugin_name == "text":
        out["texts"][tag] = [[e.step, tensor_util.make_ndarray(e.tensor_proto).tolist()[0].decode()] for e in acc.Tensors(tag)]
for tag, content in acc.PluginTagToContent("hparams").items():
    d = plugin_data_pb2.HParamsPluginData.FromString(content)
    out["hparams"] = {k: v.WhichOneof("kind") + "=" + str(getattr(v, v.WhichOneof("kind"))) for k, v in d.session_start_info.hparams.items()}
print(json.dumps(out))
`

// TestTensorBoardTrackerIsReadByTensorBoard logs scalars, an image, text and hyper-parameters
// through the "tensorboard" tracker and reads the run back with tensorboard's
// EventAccumulator: every scalar's step, value (float32, as SummaryWriter stores it) and wall
// time (between the instants before and after its Log call), the image's size, the text, the
// hyper-parameters with their types.
func TestTensorBoardTrackerIsReadByTensorBoard(t *testing.T) {
	py := trackerenv.Python(t, "tensorboard")
	dir := t.TempDir()
	a := soloAcc(Config{ProjectDir: dir, LogWith: []string{"tensorboard"}})
	config := map[string]any{"lr": 0.001, "batch_size": 64, "optimizer": "adamw", "fp16": false}
	if err := a.InitTrackers("mnist", config); err != nil {
		t.Fatal(err)
	}
	type logged struct {
		step          int
		values        map[string]float64
		before, after float64
	}
	var logs []logged
	for i, step := range []int{0, 1, 2, 5, 10, 11} {
		v := map[string]float64{"loss": 2.5 / float64(i+1), "lr": 1e-3 * math.Pow(0.9, float64(i))}
		if step%5 == 0 {
			v["eval/accuracy"] = 0.5 + 0.04*float64(i)
		}
		before := float64(time.Now().UnixNano()) / 1e9
		a.Log(v, step)
		logs = append(logs, logged{step, v, before, float64(time.Now().UnixNano()) / 1e9})
	}
	img := image.NewRGBA(image.Rect(0, 0, 28, 14))
	img.Set(3, 4, color.RGBA{255, 0, 0, 255})
	a.LogImages(map[string]image.Image{"samples": img}, 10)
	a.LogText(map[string]string{"notes": "**epoch 1** done"}, 11)
	a.EndTraining()

	var got struct {
		Scalars map[string][][3]float64
		Images  map[string][][4]int
		Texts   map[string][][2]any
		Hparams map[string]string
	}
	out := trackerenv.Run(t, py, tbReadScript, nil, filepath.Join(dir, "logs", "mnist"))
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, tag := range []string{"loss", "lr", "eval/accuracy"} {
		var want []logged
		for _, l := range logs {
			if _, ok := l.values[tag]; ok {
				want = append(want, l)
			}
		}
		events := got.Scalars[tag]
		if len(events) != len(want) {
			t.Fatalf("%s: TensorBoard read %d events, %d were logged: %v", tag, len(events), len(want), events)
		}
		for i, e := range events {
			w := want[i]
			if int(e[1]) != w.step || e[2] != float64(float32(w.values[tag])) {
				t.Errorf("%s event %d: step %v value %v; logged step %d value %v", tag, i, e[1], e[2], w.step, float32(w.values[tag]))
			}
			if e[0] < w.before-1e-6 || e[0] > w.after+1e-6 {
				t.Errorf("%s event %d: wall time %.6f outside its Log call [%.6f, %.6f]", tag, i, e[0], w.before, w.after)
			}
		}
	}
	if len(got.Scalars) != 3 {
		t.Errorf("scalar tags %v; want loss, lr, eval/accuracy", got.Scalars)
	}
	if im := got.Images["samples"]; len(im) != 1 || im[0][0] != 10 || im[0][1] != 28 || im[0][2] != 14 || im[0][3] == 0 {
		t.Errorf("images: %v; want one 28x14 PNG at step 10", got.Images)
	}
	if tx := got.Texts["notes/text_summary"]; len(tx) != 1 || tx[0][0] != 11.0 || tx[0][1] != "**epoch 1** done" {
		t.Errorf("texts: %v; want the note at step 11", got.Texts)
	}
	wantHP := map[string]string{"lr": "number_value=0.001", "batch_size": "number_value=64.0", "optimizer": "string_value=adamw", "fp16": "bool_value=False"}
	for k, v := range wantHP {
		if got.Hparams[k] != v {
			t.Errorf("hparam %s: %q; want %q (all: %v)", k, got.Hparams[k], v, got.Hparams)
		}
	}
}
