// Command resume runs the training function of train.go as a program that
// goaccel launch starts on each process (trainAndReport; -hang runs
// skipOne instead).
package main

import "flag"

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
	trainAndReport(cfg)
}
