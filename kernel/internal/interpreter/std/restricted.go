package std

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/traefik/yaegi/interp"
)

// The symbols yaegi's extract leaves to the package it writes into (its
// "restricted" ones): interpreted code must not end or signal the process
// it runs in, a notebook's executor.

// osExit ends the evaluation as os.Exit ends a program: no deferred call
// runs, and the evaluation's error carries the status.
func osExit(code int) { panic(interp.ExitCode(code)) }

// osFindProcess is os.FindProcess, except for the executor itself.
func osFindProcess(pid int) (*os.Process, error) {
	if pid == os.Getpid() {
		return nil, fmt.Errorf("os.FindProcess(%d): the notebook's own process is not available to cells", pid)
	}
	return os.FindProcess(pid)
}

// logFatal, logFatalf and logFatalln log as log.Fatal does, then end the
// evaluation with status 1 instead of the process.
func logFatal(v ...any) {
	_ = log.Output(2, fmt.Sprint(v...))
	panic(interp.ExitCode(1))
}

func logFatalf(format string, v ...any) {
	_ = log.Output(2, fmt.Sprintf(format, v...))
	panic(interp.ExitCode(1))
}

func logFatalln(v ...any) {
	_ = log.Output(2, fmt.Sprintln(v...))
	panic(interp.ExitCode(1))
}

// logLogger is log.Logger for interpreted code: its Fatal methods end the
// evaluation instead of the process.
type logLogger struct{ l *log.Logger }

// logNew is log.New, for interpreted code.
func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...any) {
	_ = l.l.Output(2, fmt.Sprint(v...))
	panic(interp.ExitCode(1))
}

func (l *logLogger) Fatalf(format string, v ...any) {
	_ = l.l.Output(2, fmt.Sprintf(format, v...))
	panic(interp.ExitCode(1))
}

func (l *logLogger) Fatalln(v ...any) {
	_ = l.l.Output(2, fmt.Sprintln(v...))
	panic(interp.ExitCode(1))
}

func (l *logLogger) Flags() int                       { return l.l.Flags() }
func (l *logLogger) Output(depth int, s string) error { return l.l.Output(depth+1, s) }
func (l *logLogger) Panic(v ...any)                   { l.l.Panic(v...) }
func (l *logLogger) Panicf(format string, v ...any)   { l.l.Panicf(format, v...) }
func (l *logLogger) Panicln(v ...any)                 { l.l.Panicln(v...) }
func (l *logLogger) Prefix() string                   { return l.l.Prefix() }
func (l *logLogger) Print(v ...any)                   { l.l.Print(v...) }
func (l *logLogger) Printf(format string, v ...any)   { l.l.Printf(format, v...) }
func (l *logLogger) Println(v ...any)                 { l.l.Println(v...) }
func (l *logLogger) SetFlags(flag int)                { l.l.SetFlags(flag) }
func (l *logLogger) SetOutput(w io.Writer)            { l.l.SetOutput(w) }
func (l *logLogger) SetPrefix(prefix string)          { l.l.SetPrefix(prefix) }
func (l *logLogger) Writer() io.Writer                { return l.l.Writer() }
