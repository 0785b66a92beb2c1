package notebook_launcher_test

import (
	"fmt"
	"log"
	"os"

	"github.com/goaccel/goaccel/notebook_launcher"
)

type Config struct {
	LR     float64
	Epochs int
}

// In main (or any code every process reaches the same way): the launching
// process starts two workers, each runs train(cfg) with the launcher's cfg,
// and Launch returns rank 0's result.
func ExampleLaunch() {
	train := func(cfg Config) map[string]float64 {
		fmt.Println("hello from rank", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE"))
		return map[string]float64{"lr": cfg.LR, "epochs": float64(cfg.Epochs)}
	}
	cfg := Config{LR: 1e-3, Epochs: 2}
	res, err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2, MixedPrecision: "bf16"}, cfg)
	if err != nil {
		log.Fatal(err) // e.g. "worker rank 1 failed (exit status 2): panic: …"
	}
	metrics := res.(map[string]float64)
	fmt.Println(metrics["epochs"])
}
