package magics

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Modules are the Go modules a session's cells import packages from, for
// %go.
type Modules interface {
	// GoGet pins module@version for the session's imports (`%go get`);
	// result, when not nil, is the session's result to report (a switch to
	// an executor built with the new version).
	GoGet(ctx context.Context, arg string) (result any, err error)
	// GoModUse makes cells import the local module at dir (`%go mod use`).
	GoModUse(ctx context.Context, dir string) (result any, err error)
	// GoList describes the packages and modules the session uses.
	GoList() []string
}

// goMagic is %go get MODULE@VERSION, %go mod use DIR and %go list.
func goMagic(ctx context.Context, c Call, env Env) (Output, error) {
	m, ok := env.(Modules)
	if !ok {
		return Output{}, errors.New("%go: this session cannot import modules")
	}
	args := strings.Fields(c.Args)
	var (
		result any
		err    error
	)
	switch {
	case len(args) == 2 && args[0] == "get":
		result, err = m.GoGet(ctx, args[1])
	case len(args) == 3 && args[0] == "mod" && args[1] == "use":
		result, err = m.GoModUse(ctx, args[2])
	case len(args) == 1 && args[0] == "list":
		for _, l := range m.GoList() {
			fmt.Fprintln(env.Stdout(), l)
		}
		return Output{}, nil
	default:
		return Output{}, fmt.Errorf("%%go %s: want `%%go get MODULE@VERSION`, `%%go mod use DIR` or `%%go list`", c.Args)
	}
	if err != nil {
		return Output{}, fmt.Errorf("%%go %s: %w", c.Args, err)
	}
	return Output{Result: result}, nil
}
