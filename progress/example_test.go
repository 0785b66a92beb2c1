package progress_test

import (
	"fmt"
	"io"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/progress"
	"github.com/goaccel/goaccel/tensors"
)

// Epochs × batches: the batches' bar is nested in the epochs' bar and shows
// the loss. In a terminal the line reads
//
//	epoch 2/2 | train: 100%|████████████████████| 2/2 [00:00<00:00, 812.41it/s, loss=0.25]
//
// and under a notebook cell each level is one HTML bar updated in place.
// (Output discards the lines here so the example's output is stable; by
// default they go to standard error.)
func Example() {
	x := tensors.New(make([]float32, 8), 8, 1)
	loader := data.NewLoader(data.NewTensorDataset(x, nil), data.LoaderConfig{BatchSize: 4})
	epochs := progress.New(progress.Options{Total: 2, Desc: "epoch", Output: io.Discard})
	samples := 0
	for epochs.Next() {
		bar := epochs.Over(loader, "train")
		for bar.Next() {
			xb, _ := loader.Batch()
			samples += xb.Size(0)
			bar.Set("loss", 0.25)
		}
	}
	fmt.Println("epochs:", epochs.N(), "samples:", samples)
	// Output: epochs: 2 samples: 16
}

// Range counts steps; Index is the step in progress.
func ExampleRange() {
	bar := progress.New(progress.Options{Total: 3, Desc: "warm-up", Output: io.Discard})
	sum := 0
	for bar.Next() {
		sum += bar.Index()
	}
	fmt.Println(sum, bar.N())
	// Output: 3 3
}

// A bar driven by hand, counting samples rather than batches.
func ExampleBar_Add() {
	bar := progress.New(progress.Options{Total: 1000, Desc: "eval", Unit: "img", Output: io.Discard})
	for done := 0; done < 1000; done += 250 {
		bar.Add(250)
	}
	bar.Close()
	fmt.Println(bar.N())
	// Output: 1000
}
