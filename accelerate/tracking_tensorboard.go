package accelerate

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"time"

	"github.com/goaccel/goaccel/accelerate/internal/tensorboard"
	"gopkg.in/yaml.v3"
)

// tensorboardTracker is the "tensorboard" tracker (Accelerate's TensorBoardTracker): an event
// file in LoggingDir/<project> that `tensorboard --logdir LoggingDir` shows as the run
// <project>, with the run's hyper-parameters on the HParams dashboard and in hparams.yml.
type tensorboardTracker struct {
	dir string // the logging folder
	w   *tensorboard.Writer
}

func (t *tensorboardTracker) Start(project string, config map[string]any) error {
	run := filepath.Join(t.dir, project)
	w, err := tensorboard.Create(run)
	if err != nil {
		return err
	}
	t.w = w
	if len(config) == 0 {
		return nil
	}
	// As TensorBoardTracker.store_init_configuration: the HParams plugin's record of the run
	// and a YAML copy of the values beside the event file.
	if err := w.HParams(config, time.Now()); err != nil {
		return err
	}
	y, err := yaml.Marshal(config)
	if err != nil {
		return fmt.Errorf("tensorboard: hparams.yml: %w", err)
	}
	return os.WriteFile(filepath.Join(run, "hparams.yml"), y, 0o644)
}

func (t *tensorboardTracker) Log(values map[string]float64, step int) error {
	return t.w.Scalars(values, int64(step), time.Now())
}

func (t *tensorboardTracker) LogImages(images map[string]image.Image, step int) error {
	now := time.Now()
	for _, tag := range sortedKeys(images) {
		if err := t.w.Image(tag, images[tag], int64(step), now); err != nil {
			return err
		}
	}
	return nil
}

func (t *tensorboardTracker) LogText(texts map[string]string, step int) error {
	now := time.Now()
	for _, tag := range sortedKeys(texts) {
		if err := t.w.Text(tag, texts[tag], int64(step), now); err != nil {
			return err
		}
	}
	return nil
}

func (t *tensorboardTracker) Finish() error {
	if t.w == nil {
		return nil
	}
	return t.w.Close()
}
