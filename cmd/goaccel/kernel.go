package main

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/kernel"
	"github.com/goaccel/goaccel/kernel/process"
)

// runKernel is `goaccel kernel CONNECTION_FILE`, what kernel.json starts.
// GOACCEL_LOG=debug|info|warn|error sets the log level (default warn);
// GOACCEL_MAX_OUTPUT caps what one cell sends to the front end and
// GOACCEL_MAX_MESSAGE_SIZE the largest message a client may send (sizes such
// as "64MiB", "1GB" or a number of bytes).
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
	maxOutput, err := sizeEnv("GOACCEL_MAX_OUTPUT")
	if err != nil {
		return fail(err)
	}
	maxMessage, err := sizeEnv("GOACCEL_MAX_MESSAGE_SIZE")
	if err != nil {
		return fail(err)
	}
	k := kernel.New(kernel.Config{Conn: ci, ExecutorCommand: []string{self, process.ExecutorCommand}, Log: log,
		MaxOutput: int(maxOutput), MaxMessageSize: maxMessage})
	if err := k.Run(context.Background()); err != nil {
		return fail(err)
	}
	return 0
}

// sizeEnv reads a size in bytes from environment variable name: a number
// with an optional unit (B, KB, MB, GB, KiB, MiB, GiB). Unset gives 0, the
// kernel's default.
func sizeEnv(name string) (int64, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return 0, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %w", name, v, err)
	}
	return n, nil
}

func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		scale  int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, scale := s, int64(1)
	for _, u := range units {
		if cut, ok := strings.CutSuffix(s, u.suffix); ok {
			num, scale = strings.TrimSpace(cut), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/scale {
		return 0, fmt.Errorf("not a positive size (write it like 64MiB, 1GB or 1000000)")
	}
	return n * scale, nil
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
