package accelerate

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/goaccel/goaccel/dist"
)

// Logger logs through log/slog to stderr with a "[RANK i]" prefix, on the
// main process only unless made with AllProcesses (Accelerate's get_logger).
type Logger struct {
	l        *slog.Logger
	rank     int
	mainOnly bool
}

// GetLogger returns a logger named name. Its level comes from
// ACCELERATE_LOG_LEVEL (debug, info, warning, error; default info).
func GetLogger(name string) *Logger {
	rank := 0
	if cfg, err := dist.FromEnv(); err == nil {
		rank = cfg.Rank
	}
	return newLogger(name, rank, os.Stderr)
}

func newLogger(name string, rank int, w io.Writer) *Logger {
	level := slog.LevelInfo
	switch strings.ToLower(os.Getenv("ACCELERATE_LOG_LEVEL")) {
	case "debug":
		level = slog.LevelDebug
	case "warning", "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
	return &Logger{l: slog.New(h).With("logger", name), rank: rank, mainOnly: true}
}

// AllProcesses returns a logger that logs on every process.
func (l *Logger) AllProcesses() *Logger {
	c := *l
	c.mainOnly = false
	return &c
}

func (l *Logger) log(level slog.Level, msg string, args ...any) {
	if l.mainOnly && l.rank != 0 {
		return
	}
	l.l.Log(context.Background(), level, fmt.Sprintf("[RANK %d] %s", l.rank, msg), args...)
}

// Debug logs at debug level.
func (l *Logger) Debug(msg string, args ...any) { l.log(slog.LevelDebug, msg, args...) }

// Info logs at info level.
func (l *Logger) Info(msg string, args ...any) { l.log(slog.LevelInfo, msg, args...) }

// Warn logs at warning level.
func (l *Logger) Warn(msg string, args ...any) { l.log(slog.LevelWarn, msg, args...) }

// Error logs at error level.
func (l *Logger) Error(msg string, args ...any) { l.log(slog.LevelError, msg, args...) }
