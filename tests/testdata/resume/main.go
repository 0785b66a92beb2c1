// Command resume runs the training function of train.go as a program that
// goaccel launch starts on each process: -hang runs skipOne instead, and
// rank 0 prints the final weights of trainCkpt as a WEIGHTS line and the
// steps it ran as a RAN line.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	var cfg RunCfg
	flag.StringVar(&cfg.Dir, "dir", "", "project folder")
	flag.IntVar(&cfg.Epochs, "epochs", 2, "epochs")
	flag.StringVar(&cfg.Marks, "marks", "", "folder of the mark rank 1 writes at -mark_at")
	flag.IntVar(&cfg.MarkAt, "mark_at", -1, "step at which rank 1 writes its mark")
	flag.BoolVar(&cfg.Pause, "pause", false, "rank 1 waits at its mark until killed")
	flag.IntVar(&cfg.StepDelayMS, "step_delay_ms", 0, "milliseconds to sleep each step")
	hang := flag.Bool("hang", false, "run skipOne")
	flag.Parse()
	if *hang {
		skipOne(5)
		return
	}
	res := trainCkpt(cfg)
	if os.Getenv("RANK") == "0" {
		b, _ := json.Marshal(res.Weights)
		fmt.Printf("WEIGHTS %s\nRAN %d\n", b, res.Ran)
	}
}
