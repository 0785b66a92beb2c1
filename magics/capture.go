package magics

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"strings"
)

// captureMagic is %%capture [--no-stdout] [--no-stderr] [--no-display] [VAR]:
// it runs the cell with its output captured instead of shown, and binds VAR
// (if given) to the *CapturedIO holding it.
func captureMagic(ctx context.Context, c Call, env Env) (Output, error) {
	cp, ok := env.(Capturer)
	if !ok {
		return Output{}, errors.New("%%capture: this session cannot capture output")
	}
	what := CaptureOptions{Stdout: true, Stderr: true, Display: true}
	name := ""
	for _, a := range strings.Fields(c.Args) {
		switch {
		case a == "--no-stdout":
			what.Stdout = false
		case a == "--no-stderr":
			what.Stderr = false
		case a == "--no-display":
			what.Display = false
		case strings.HasPrefix(a, "-"):
			return Output{}, fmt.Errorf("%%%%capture: unknown option %s (known: --no-stdout, --no-stderr, --no-display)", a)
		case name != "":
			return Output{}, fmt.Errorf("%%%%capture takes one variable name, got %s and %s", name, a)
		case !token.IsIdentifier(a) || a == "_":
			return Output{}, fmt.Errorf("%%%%capture: %q is not a Go variable name", a)
		default:
			name = a
		}
	}
	captured, result, failed := cp.Capture(ctx, strings.Repeat("\n", c.Line)+c.Body, what)
	if name != "" {
		if err := cp.SetCaptured(name, captured); err != nil {
			return Output{}, fmt.Errorf("%%%%capture: %w", err)
		}
	}
	if failed {
		return Output{Result: result}, nil
	}
	return Output{}, nil
}
