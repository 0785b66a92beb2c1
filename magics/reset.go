package magics

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// resetMagic is %reset [-f]: forget every variable, function, type and
// import. Without -f it asks first, as IPython does.
func resetMagic(_ context.Context, c Call, env Env) (Output, error) {
	r, ok := env.(Resetter)
	if !ok {
		return Output{}, errors.New("%reset: this session cannot be reset")
	}
	switch strings.TrimSpace(c.Args) {
	case "-f":
	case "":
		a, ok := env.(Asker)
		if !ok {
			return Output{}, errors.New("%reset: cannot ask for confirmation here; use %reset -f")
		}
		answer, err := a.Ask("Once deleted, variables cannot be recovered. Proceed (y/[n])? ")
		if err != nil {
			return Output{}, fmt.Errorf("%%reset: %w; use %%reset -f to reset without asking", err)
		}
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stdout(), "Nothing done.")
			return Output{}, nil
		}
	default:
		return Output{}, fmt.Errorf("%%reset: unknown arguments %q; use %%reset or %%reset -f", c.Args)
	}
	if err := r.Reset(); err != nil {
		return Output{}, fmt.Errorf("%%reset: %w", err)
	}
	return Output{}, nil
}
