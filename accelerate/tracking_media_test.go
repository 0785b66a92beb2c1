package accelerate

import (
	"image"
	"strings"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/progress"
	"github.com/goaccel/goaccel/tensors"
)

// contentSink keeps every display message with its content.
type contentSink struct {
	mu       sync.Mutex
	types    []string
	contents []map[string]any
}

func (s *contentSink) Send(msgType string, content map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types, s.contents = append(s.types, msgType), append(s.contents, content)
}

// TestNotebookTrackerShowsImagesAndTextInPlace: LogImages and LogText through the "notebook"
// tracker show an output per tag under the cell, which later calls update in place.
func TestNotebookTrackerShowsImagesAndTextInPlace(t *testing.T) {
	sink := &contentSink{}
	host.ForTest(t, host.Host{Display: sink})
	a := soloAcc(Config{LogWith: []string{"notebook"}})
	if err := a.InitTrackers("run", nil); err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 28, 28))
	a.LogImages(map[string]image.Image{"digits": img}, 1)
	a.LogText(map[string]string{"notes": "epoch **1**"}, 1)
	a.LogImages(map[string]image.Image{"digits": img}, 2)
	a.LogText(map[string]string{"notes": "epoch **2**"}, 2)
	ids := map[string]string{}
	var kinds []string
	for i, c := range sink.contents {
		data, _ := c["data"].(map[string]any)
		id, _ := c["transient"].(map[string]any)["display_id"].(string)
		switch {
		case data["text/html"] != nil && strings.Contains(data["text/html"].(string), "data:image/png;base64,"):
			kinds = append(kinds, sink.types[i]+" image")
			if !strings.Contains(data["text/html"].(string), "digits, step") {
				t.Errorf("image output without its caption: %v", data["text/html"])
			}
			if ids["image"] != "" && ids["image"] != id {
				t.Error("the second image went to another output")
			}
			ids["image"] = id
		case data["text/markdown"] != nil:
			kinds = append(kinds, sink.types[i]+" text")
			if !strings.Contains(data["text/markdown"].(string), "**notes**") {
				t.Errorf("text output %v", data["text/markdown"])
			}
			if ids["text"] != "" && ids["text"] != id {
				t.Error("the second text went to another output")
			}
			ids["text"] = id
		}
	}
	want := "display_data image,display_data text,update_display_data image,update_display_data text"
	if strings.Join(kinds, ",") != want {
		t.Errorf("outputs %v; want %s", kinds, want)
	}
}

// TestAProgressBarShowsTheLoggedValues: a bar added as a tracker shows what Log records.
func TestAProgressBarShowsTheLoggedValues(t *testing.T) {
	a := soloAcc(Config{})
	bar := progress.Range(3, "epoch")
	a.AddTracker(bar)
	if err := a.InitTrackers("run", nil); err != nil {
		t.Fatal(err)
	}
	bar.Next()
	a.Log(map[string]float64{"loss": 0.75}, 0)
	a.Log(map[string]float64{"loss": 0.5}, 1)
	if s := bar.String(); !strings.Contains(s, "loss=0.5]") {
		t.Errorf("bar %q does not show the latest loss", s)
	}
	bar.Close()
}

// TestProfileShowsItsTableUnderTheCell: in a notebook the main process shows the top ops as
// an HTML table when Profile returns.
func TestProfileShowsItsTableUnderTheCell(t *testing.T) {
	sink := &contentSink{}
	host.ForTest(t, host.Host{Display: sink})
	a := soloAcc(Config{})
	res := a.Profile(ProfileKwargs{RowLimit: 3}, func() {
		tensors.Ones(4, 4).MatMul(tensors.Ones(4, 4)).Sum()
	})
	if len(sink.types) != 1 || sink.types[0] != "display_data" {
		t.Fatalf("messages %v; want one display_data", sink.types)
	}
	html, _ := sink.contents[0]["data"].(map[string]any)["text/html"].(string)
	if !strings.Contains(html, "<table>") || !strings.Contains(html, "MatMul") || strings.Count(html, "<tr>") != 4 {
		t.Errorf("the table under the cell: %s", html)
	}
	if !strings.Contains(res.Table(), "MatMul") {
		t.Errorf("Table:\n%s", res.Table())
	}
}
