package notebook_launcher_test

import (
	"fmt"
	"log"
	"os"

	"github.com/goaccel/goaccel/notebook_launcher"
)

// In main (or any code every process reaches the same way): the launching
// process starts two workers and waits; each worker runs train and exits.
func ExampleLaunch() {
	train := func() {
		fmt.Println("hello from rank", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE"))
	}
	err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2, MixedPrecision: "bf16"})
	if err != nil {
		log.Fatal(err) // e.g. "worker rank 1 failed (exit status 2); last stderr lines: …"
	}
}
