package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Options configure a Session.
type Options struct {
	Stdout, Stderr io.Writer // interpreted code's os.Stdout/os.Stderr/fmt.Print* go here
	// Stdin is interpreted code's os.Stdin; nil means reading returns an error
	// saying stdin is not available.
	Stdin io.Reader
	Dir   string // initial working directory ("" = current)
}

// Result is the outcome of executing one cell.
type Result struct {
	Data        map[string]any   // execute_result MIME bundle; nil = show nothing
	Metadata    map[string]any   // execute_result metadata
	Error       *Error           // nil on success
	Payload     []map[string]any // e.g. a "page" payload for SYMBOL? and %doc
	Interrupted bool             // the cell was stopped by ctx cancellation
}

// Error is a failed cell, as the Jupyter error message carries it.
type Error struct {
	Ename, Evalue string
	Traceback     []string
}

// Session is one interpreter whose state persists across cells.
type Session struct {
	opts  Options
	in    *stdinSwitch
	yaegi *interp.Interpreter
}

// New starts an interpreter with the standard library and goaccel's packages.
func New(opts Options) (*Session, error) {
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Dir != "" {
		if err := os.Chdir(opts.Dir); err != nil {
			return nil, fmt.Errorf("repl: change to initial directory: %w", err)
		}
	}
	s := &Session{opts: opts, in: &stdinSwitch{r: opts.Stdin}}
	s.yaegi = interp.New(interp.Options{Stdin: s.in, Stdout: opts.Stdout, Stderr: opts.Stderr})
	if err := s.yaegi.Use(stdlib.Symbols); err != nil {
		return nil, fmt.Errorf("repl: load standard library symbols: %w", err)
	}
	return s, nil
}

// SetStdin swaps the stdin reader per execution (allow_stdin differs per request).
func (s *Session) SetStdin(r io.Reader) { s.in.set(r) }

// Execute runs one cell. ctx cancellation interrupts it.
func (s *Session) Execute(ctx context.Context, code string) (res Result) {
	v, err := s.eval(ctx, code)
	if err != nil {
		if ctx.Err() != nil {
			return Result{Interrupted: true, Error: &Error{Ename: "Interrupted", Evalue: "interrupted by user", Traceback: []string{"Interrupted: interrupted by user"}}}
		}
		return Result{Error: &Error{Ename: "Error", Evalue: err.Error(), Traceback: []string{err.Error()}}}
	}
	if v.IsValid() && v.CanInterface() {
		return Result{Data: map[string]any{"text/plain": fmt.Sprint(v.Interface())}, Metadata: map[string]any{}}
	}
	return Result{}
}

func (s *Session) eval(ctx context.Context, code string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("interpreter panic: %v", r)
		}
	}()
	return s.yaegi.EvalWithContext(ctx, code)
}

// UserExpressions evaluates expressions for an execute_request's user_expressions.
func (s *Session) UserExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, e := range exprs {
		v, err := s.eval(ctx, e)
		if err != nil {
			out[name] = map[string]any{"status": "error", "ename": "Error", "evalue": err.Error(), "traceback": []string{err.Error()}}
			continue
		}
		text := ""
		if v.IsValid() && v.CanInterface() {
			text = fmt.Sprint(v.Interface())
		}
		out[name] = map[string]any{"status": "ok", "data": map[string]any{"text/plain": text}, "metadata": map[string]any{}}
	}
	return out
}

// IsComplete reports whether code is a complete cell: "complete", "incomplete"
// (with the indent for the next line) or "invalid".
func (s *Session) IsComplete(code string) (status, indent string) { return "complete", "" }

// Complete returns completion matches for the text before cursor (in code points).
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	return nil, cursor, cursor
}

// Inspect returns documentation for the symbol under cursor.
func (s *Session) Inspect(code string, cursor int, detailLevel int) (found bool, data map[string]any) {
	return false, map[string]any{}
}
