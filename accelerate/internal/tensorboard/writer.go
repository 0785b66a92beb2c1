package tensorboard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/tensorboard/hparamspb"
	"github.com/goaccel/goaccel/accelerate/internal/tensorboard/tbpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// Writer appends events to one event file of a run folder. Each call writes its event
// through to the file (TensorBoard reads files as they grow); its methods are safe for use by
// several goroutines.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	path string
	buf  []byte // a record being framed, reused
}

// Create makes dir (a run: TensorBoard shows one run per folder) and a new event file in it,
// named as TensorFlow and PyTorch name theirs (events.out.tfevents.<seconds>.<host>.<pid>.<n>),
// which starts with the file-version event.
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tensorboard: make the run folder: %w", err)
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "localhost"
	}
	now := time.Now()
	name := fmt.Sprintf("events.out.tfevents.%010d.%s.%d.%d", now.Unix(), host, os.Getpid(), now.Nanosecond())
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tensorboard: create the event file: %w", err)
	}
	w := &Writer{f: f, path: path}
	if err := w.write(&tbpb.Event{WallTime: seconds(now), What: &tbpb.Event_FileVersion{FileVersion: "brain.Event:2"}}); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// Path is the event file's path.
func (w *Writer) Path() string { return w.path }

// seconds is t as the wall time of an event: seconds since the Unix epoch.
func seconds(t time.Time) float64 { return float64(t.Unix()) + float64(t.Nanosecond())/1e9 }

// write frames ev as one record and writes it to the file.
func (w *Writer) write(ev *tbpb.Event) error {
	data, err := proto.Marshal(ev)
	if err != nil {
		return fmt.Errorf("tensorboard: encode an event: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("tensorboard: write to %s after Close", w.path)
	}
	w.buf = appendRecord(w.buf[:0], data)
	if _, err := w.f.Write(w.buf); err != nil {
		return fmt.Errorf("tensorboard: write %s: %w", w.path, err)
	}
	return nil
}

// summary writes one event holding values at step.
func (w *Writer) summary(step int64, wall time.Time, values ...*tbpb.Summary_Value) error {
	return w.write(&tbpb.Event{WallTime: seconds(wall), Step: step,
		What: &tbpb.Event_Summary{Summary: &tbpb.Summary{Value: values}}})
}

// Scalars writes one event with a scalar per tag (as SummaryWriter.add_scalar: a float32
// simple_value), tags in sorted order.
func (w *Writer) Scalars(values map[string]float64, step int64, wall time.Time) error {
	tags := make([]string, 0, len(values))
	for tag := range values {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	vs := make([]*tbpb.Summary_Value, len(tags))
	for i, tag := range tags {
		vs[i] = &tbpb.Summary_Value{Tag: tag, Value: &tbpb.Summary_Value_SimpleValue{SimpleValue: float32(values[tag])}}
	}
	return w.summary(step, wall, vs...)
}

// Scalar writes one scalar.
func (w *Writer) Scalar(tag string, value float64, step int64, wall time.Time) error {
	return w.Scalars(map[string]float64{tag: value}, step, wall)
}

// Image writes img as a PNG image summary (SummaryWriter.add_image's form, which the Images
// dashboard shows).
func (w *Writer) Image(tag string, img image.Image, step int64, wall time.Time) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("tensorboard: encode image %q as PNG: %w", tag, err)
	}
	r := img.Bounds()
	colorspace := int32(3) // RGB
	switch m := img.(type) {
	case *image.Gray, *image.Gray16:
		colorspace = 1
	case interface{ Opaque() bool }:
		if !m.Opaque() {
			colorspace = 4 // RGBA
		}
	}
	return w.summary(step, wall, &tbpb.Summary_Value{Tag: tag, Value: &tbpb.Summary_Value_Image{Image: &tbpb.Summary_Image{
		Height: int32(r.Dy()), Width: int32(r.Dx()), Colorspace: colorspace, EncodedImageString: b.Bytes()}}})
}

// Text writes text (Markdown, as the Text dashboard renders it) under tag + "/text_summary",
// the tag SummaryWriter.add_text uses: a string tensor of the text plugin.
func (w *Writer) Text(tag, text string, step int64, wall time.Time) error {
	content, err := proto.Marshal(&tbpb.TextPluginData{Version: 0})
	if err != nil {
		return fmt.Errorf("tensorboard: encode the text plugin's data: %w", err)
	}
	return w.summary(step, wall, &tbpb.Summary_Value{
		Tag:      tag + "/text_summary",
		Metadata: &tbpb.SummaryMetadata{PluginData: &tbpb.SummaryMetadata_PluginData{PluginName: "text", Content: content}},
		Value: &tbpb.Summary_Value_Tensor{Tensor: &tbpb.TensorProto{Dtype: tbpb.DataType_DT_STRING,
			TensorShape: &tbpb.TensorShapeProto{Dim: []*tbpb.TensorShapeProto_Dim{{Size: 1}}},
			StringVal:   [][]byte{[]byte(text)}}},
	})
}

// HParams writes the run's hyper-parameters as the HParams plugin's session start (what
// tensorboard.plugins.hparams.api.hparams writes), so that the HParams dashboard lists the
// run with its values and its scalars as metrics. Booleans, numbers and strings keep their
// type; nil is left out; anything else is written as its JSON text.
func (w *Writer) HParams(values map[string]any, start time.Time) error {
	hp := map[string]*structpb.Value{}
	for k, v := range values {
		val, ok, err := hparamValue(v)
		if err != nil {
			return fmt.Errorf("tensorboard: hyper-parameter %q: %w", k, err)
		}
		if ok {
			hp[k] = val
		}
	}
	// The session group is named by a hash of the values, as hparams' own summaries name it.
	keys := make([]string, 0, len(hp))
	for k := range hp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%q=%v;", k, hp[k].AsInterface())
	}
	sum := h.Sum(nil)
	data := &hparamspb.HParamsPluginData{Version: 0, Data: &hparamspb.HParamsPluginData_SessionStartInfo{
		SessionStartInfo: &hparamspb.SessionStartInfo{Hparams: hp, GroupName: hex.EncodeToString(sum), StartTimeSecs: seconds(start)}}}
	content, err := proto.Marshal(data)
	if err != nil {
		return fmt.Errorf("tensorboard: encode the hyper-parameters: %w", err)
	}
	// The plugin's summaries carry an empty float tensor (hparams' metadata.NULL_TENSOR).
	null := &tbpb.TensorProto{Dtype: tbpb.DataType_DT_FLOAT, TensorShape: &tbpb.TensorShapeProto{Dim: []*tbpb.TensorShapeProto_Dim{{Size: 0}}}}
	return w.summary(0, start, &tbpb.Summary_Value{
		Tag:      "_hparams_/session_start_info",
		Metadata: &tbpb.SummaryMetadata{PluginData: &tbpb.SummaryMetadata_PluginData{PluginName: "hparams", Content: content}},
		Value:    &tbpb.Summary_Value_Tensor{Tensor: null},
	})
}

// hparamValue is v as the HParams plugin stores a value, and whether it has one.
func hparamValue(v any) (*structpb.Value, bool, error) {
	switch x := v.(type) {
	case nil:
		return nil, false, nil
	case bool:
		return structpb.NewBoolValue(x), true, nil
	case string:
		return structpb.NewStringValue(x), true, nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		f, _ := toFloat(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return structpb.NewStringValue(fmt.Sprint(f)), true, nil
		}
		return structpb.NewNumberValue(f), true, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false, err
	}
	return structpb.NewStringValue(string(b)), true, nil
}

// toFloat converts a Go number to float64.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int8:
		return float64(x), true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint8:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// Close closes the event file; later writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	if err != nil {
		return fmt.Errorf("tensorboard: close %s: %w", w.path, err)
	}
	return nil
}
