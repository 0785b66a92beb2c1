// Command goaccel is the goaccel binary: a Go Jupyter kernel and an
// Accelerate-style launcher.
//
//	goaccel install [--user] [--prefix P]   register the "Go (goaccel)" kernel with Jupyter
//	goaccel kernel CONNECTION_FILE          run the kernel (what kernel.json starts)
//	goaccel launch|config|env ...           run and configure distributed training
//
// Each subcommand lives in its own file; main.go only dispatches.
package main
