package accelerate

import (
	"fmt"
	"image"
	"os"
	"sort"
	"strings"
)

// ImageTracker is a Tracker that also records images (the "tensorboard" and "notebook"
// trackers): Accelerate's log_images. A tracker type declared in a notebook cell and given to
// AddTracker gets Start, Log and Finish only: the interpreter hands compiled code a wrapper
// with Tracker's methods, so its LogImages and LogText are not seen.
type ImageTracker interface {
	Tracker
	// LogImages records each image under its tag at step.
	LogImages(images map[string]image.Image, step int) error
}

// TextTracker is a Tracker that also records text (the "tensorboard" and "notebook"
// trackers): what Accelerate's log does with a string value.
type TextTracker interface {
	Tracker
	// LogText records each text under its tag at step.
	LogText(texts map[string]string, step int) error
}

// LogImages hands images at step to every tracker that records images (main process only;
// the others ignore them).
func (a *Accelerator) LogImages(images map[string]image.Image, step int) {
	for _, t := range a.trackers {
		if it, ok := t.(ImageTracker); ok {
			if err := it.LogImages(images, step); err != nil {
				fmt.Fprintf(os.Stderr, "accelerate: tracker %T: %v\n", t, err)
			}
		}
	}
}

// LogText hands texts (Markdown in TensorBoard's Text dashboard) at step to every tracker that
// records text (main process only; the others ignore them).
func (a *Accelerator) LogText(texts map[string]string, step int) {
	for _, t := range a.trackers {
		if tt, ok := t.(TextTracker); ok {
			if err := tt.LogText(texts, step); err != nil {
				fmt.Fprintf(os.Stderr, "accelerate: tracker %T: %v\n", t, err)
			}
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// accelerateOnly are the trackers Accelerate ships that goaccel does not: each logs to a
// service through its own Python client.
var accelerateOnly = map[string]string{
	"wandb":    "Weights & Biases",
	"trackio":  "Trackio",
	"comet_ml": "Comet",
	"aim":      "Aim",
	"clearml":  "ClearML",
	"dvclive":  "DVCLive",
	"swanlab":  "SwanLab",
}

// checkTracker panics with the supported names when name is not one.
func checkTracker(name string) {
	if what, ok := accelerateOnly[name]; ok {
		panic(fmt.Sprintf("accelerate: Config.LogWith names %q, Accelerate's %s tracker, which goaccel does not have (it logs through that service's Python client); "+
			"goaccel's trackers are all, %s; or give your own Tracker to AddTracker", name, what, strings.Join(knownTrackers, ", ")))
	}
	checkChoice("Config.LogWith", name, append([]string{"all"}, knownTrackers...)...)
}
