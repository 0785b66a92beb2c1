package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/goaccel/goaccel/kernel"
)

// runKernel is `goaccel kernel CONNECTION_FILE`, what kernel.json starts.
// GOACCEL_LOG=debug|info|warn|error sets the log level (default warn).
func runKernel(args []string) int {
	if len(args) < 1 {
		return fail(fmt.Errorf("usage: goaccel kernel CONNECTION_FILE (Jupyter passes the file; see goaccel install)"))
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel()}))
	slog.SetDefault(log)
	if len(args) > 1 {
		// Jupyter front ends append their extra command-line arguments
		// (jupyter run FILE passes FILE); ipykernel ignores what it does not know too.
		log.Info("ignoring extra kernel arguments", "args", args[1:])
	}
	ci, err := kernel.ReadConnectionFile(args[0])
	if err != nil {
		return fail(err)
	}
	self, err := os.Executable()
	if err != nil {
		return fail(fmt.Errorf("find the goaccel binary to start the executor: %w", err))
	}
	k := kernel.New(kernel.Config{Conn: ci, ExecutorCommand: []string{self, executorName}, Log: log})
	if err := k.Run(context.Background()); err != nil {
		return fail(err)
	}
	return 0
}

func logLevel() slog.Level {
	switch strings.ToLower(os.Getenv("GOACCEL_LOG")) {
	case "debug":
		return slog.LevelDebug
	case "info":
		return slog.LevelInfo
	case "error":
		return slog.LevelError
	}
	return slog.LevelWarn
}
