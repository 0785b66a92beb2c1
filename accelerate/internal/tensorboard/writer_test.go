package tensorboard

import (
	"encoding/binary"
	"hash/crc32"
	"image"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/tensorboard/hparamspb"
	"github.com/goaccel/goaccel/accelerate/internal/tensorboard/tbpb"
	"google.golang.org/protobuf/proto"
)

// readRecords splits a TFRecord file into its records, checking both masked CRCs of each.
func readRecords(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 12 {
			t.Fatalf("%d trailing bytes", len(b))
		}
		n := binary.LittleEndian.Uint64(b[:8])
		if got, want := binary.LittleEndian.Uint32(b[8:12]), maskedCRC(b[:8]); got != want {
			t.Fatalf("record %d: length CRC %#x, want %#x", len(out), got, want)
		}
		data := b[12 : 12+n]
		if got, want := binary.LittleEndian.Uint32(b[12+n:16+n]), maskedCRC(data); got != want {
			t.Fatalf("record %d: data CRC %#x, want %#x", len(out), got, want)
		}
		out = append(out, data)
		b = b[16+n:]
	}
	return out
}

func TestMaskedCRCIsTFRecords(t *testing.T) {
	// CRC-32C's check value, and the mask of TensorFlow's crc32c::Mask.
	if c := crc32.Checksum([]byte("123456789"), castagnoli); c != 0xe3069283 {
		t.Fatalf("CRC-32C check value %#x", c)
	}
	c := crc32.Checksum([]byte("123456789"), castagnoli)
	if got, want := maskedCRC([]byte("123456789")), ((c>>15)|(c<<17))+0xa282ead8; got != want {
		t.Errorf("masked %#x, want %#x", got, want)
	}
}

// TestEventFileHoldsFramedEvents writes every kind of event and reads the file back: the
// file-version event first, then each summary with its step and wall time.
func TestEventFileHoldsFramedEvents(t *testing.T) {
	w, err := Create(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.Path(), "events.out.tfevents.") {
		t.Errorf("file name %s: TensorBoard looks for events.out.tfevents", w.Path())
	}
	wall := time.Unix(1700000000, 250_000_000)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Scalars(map[string]float64{"b": 2, "a": 1}, 7, wall))
	must(w.Image("img", image.NewGray(image.Rect(0, 0, 3, 2)), 8, wall))
	must(w.Text("note", "hi", 9, wall))
	must(w.HParams(map[string]any{"lr": 0.1, "name": "x", "on": true, "skip": nil}, wall))
	must(w.Close())
	if err := w.Scalar("late", 1, 1, wall); err == nil {
		t.Error("a write after Close succeeded")
	}
	b, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, b)
	if len(recs) != 5 {
		t.Fatalf("%d records, want 5", len(recs))
	}
	evs := make([]*tbpb.Event, len(recs))
	for i, r := range recs {
		evs[i] = &tbpb.Event{}
		if err := proto.Unmarshal(r, evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if evs[0].GetFileVersion() != "brain.Event:2" {
		t.Errorf("first event %v, want the file version", evs[0])
	}
	s := evs[1].GetSummary().GetValue()
	if evs[1].Step != 7 || evs[1].WallTime != 1700000000.25 || len(s) != 2 || s[0].Tag != "a" || s[0].GetSimpleValue() != 1 || s[1].GetSimpleValue() != 2 {
		t.Errorf("scalars event %v", evs[1])
	}
	if im := evs[2].GetSummary().GetValue()[0].GetImage(); im.Width != 3 || im.Height != 2 || im.Colorspace != 1 || len(im.EncodedImageString) == 0 {
		t.Errorf("image %v", im)
	}
	if v := evs[3].GetSummary().GetValue()[0]; v.Tag != "note/text_summary" || string(v.GetTensor().StringVal[0]) != "hi" || v.Metadata.PluginData.PluginName != "text" {
		t.Errorf("text %v", v)
	}
	v := evs[4].GetSummary().GetValue()[0]
	var hp hparamspb.HParamsPluginData
	if err := proto.Unmarshal(v.Metadata.PluginData.Content, &hp); err != nil {
		t.Fatal(err)
	}
	got := hp.GetSessionStartInfo().Hparams
	if v.Tag != "_hparams_/session_start_info" || len(got) != 3 || got["lr"].GetNumberValue() != 0.1 || got["name"].GetStringValue() != "x" || !got["on"].GetBoolValue() {
		t.Errorf("hparams %v", hp.GetSessionStartInfo())
	}
}
