package magics

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// basics is the table of built-in magics; %help needs the registry.
func basics(r *Registry) []Magic {
	return []Magic{
		{Name: "help", Usage: "%help", Help: "list the magics", Run: func(_ context.Context, _ Call, env Env) (Output, error) {
			for _, m := range r.all() {
				fmt.Fprintf(env.Stdout(), "%-28s %s\n", m.Usage, m.Help)
			}
			fmt.Fprintf(env.Stdout(), "%-28s %s\n", "!command", "run a shell command, output streamed")
			fmt.Fprintf(env.Stdout(), "%-28s %s\n", "SYMBOL?", "show the documentation of SYMBOL")
			return Output{}, nil
		}},
		{Name: "env", Usage: "%env [VAR[=value]]", Help: "list, show or set environment variables", Run: envMagic},
		{Name: "cd", Usage: "%cd [DIR]", Help: "change the working directory (default: home)", Run: cdMagic},
		{Name: "time", Usage: "%time STATEMENT", Help: "run Go code and print the wall time", Run: timeMagic},
		{Name: "time", Cell: true, Usage: "%%time", Help: "run the cell and print the wall time", Run: timeMagic},
		{Name: "who", Usage: "%who", Help: "list the variables in scope", Run: func(_ context.Context, _ Call, env Env) (Output, error) {
			names := env.Who()
			if len(names) == 0 {
				fmt.Fprintln(env.Stdout(), "no variables defined")
			}
			for _, n := range names {
				fmt.Fprintln(env.Stdout(), n)
			}
			return Output{}, nil
		}},
		{Name: "doc", Usage: "%doc SYMBOL", Help: "show the documentation of SYMBOL (also SYMBOL?)", Run: func(_ context.Context, c Call, env Env) (Output, error) {
			if c.Args == "" {
				return Output{}, errors.New("%doc needs a symbol, e.g. %doc strings.Split")
			}
			page, ok := env.Doc(c.Args)
			if !ok {
				return Output{}, fmt.Errorf("%%doc: no documentation found for %s", c.Args)
			}
			return Output{Page: page}, nil
		}},
		{Name: "accelerate", Usage: "%accelerate launch|export|env|config", Help: "run a function on worker processes (data-parallel training), export it, show or set defaults", Run: accelerateMagic},
		{Name: "writefile", Cell: true, Usage: "%%writefile [-a] FILE", Help: "write (or append) the cell's text to FILE", Run: writefileMagic},
	}
}

func envMagic(_ context.Context, c Call, env Env) (Output, error) {
	out := env.Stdout()
	if c.Args == "" {
		vars := os.Environ()
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(out, v)
		}
		return Output{}, nil
	}
	name, value, set := strings.Cut(c.Args, "=")
	if !set {
		name, value, set = strings.Cut(c.Args, " ")
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !set {
		v, ok := os.LookupEnv(name)
		if !ok {
			return Output{}, fmt.Errorf("%%env: %s is not set", name)
		}
		fmt.Fprintln(out, v)
		return Output{}, nil
	}
	if err := os.Setenv(name, value); err != nil {
		return Output{}, fmt.Errorf("%%env: set %s: %w", name, err)
	}
	fmt.Fprintf(out, "env: %s=%s\n", name, value)
	return Output{}, nil
}

func cdMagic(_ context.Context, c Call, env Env) (Output, error) {
	dir := c.Args
	if dir == "" || dir == "~" || strings.HasPrefix(dir, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return Output{}, fmt.Errorf("%%cd: %w", err)
		}
		dir = filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(dir, "~"), "/"))
	}
	if err := os.Chdir(dir); err != nil {
		return Output{}, fmt.Errorf("%%cd: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return Output{}, fmt.Errorf("%%cd: %w", err)
	}
	fmt.Fprintln(env.Stdout(), wd)
	return Output{}, nil
}

func timeMagic(ctx context.Context, c Call, env Env) (Output, error) {
	code := c.Args
	if c.Cell {
		code = strings.Repeat("\n", c.Line) + c.Body
	} else if strings.TrimSpace(code) == "" {
		return Output{}, errors.New("%time needs Go code to run, e.g. %time f(10)")
	}
	start := time.Now()
	res, _ := env.RunGo(ctx, code)
	fmt.Fprintf(env.Stdout(), "Wall time: %v\n", time.Since(start).Round(time.Microsecond))
	return Output{Result: res}, nil
}

func writefileMagic(_ context.Context, c Call, env Env) (Output, error) {
	args := strings.Fields(c.Args)
	appendMode := len(args) > 0 && args[0] == "-a"
	if appendMode {
		args = args[1:]
	}
	if len(args) != 1 {
		return Output{}, errors.New("%%writefile needs one file name: %%writefile [-a] FILE")
	}
	name := args[0]
	_, statErr := os.Stat(name)
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	verb := "Writing"
	if appendMode {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		verb = "Appending to"
	} else if statErr == nil {
		verb = "Overwriting"
	}
	f, err := os.OpenFile(name, flags, 0o644)
	if err != nil {
		return Output{}, fmt.Errorf("%%writefile: %w", err)
	}
	body := c.Body
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		return Output{}, fmt.Errorf("%%writefile: %w", err)
	}
	if err := f.Close(); err != nil {
		return Output{}, fmt.Errorf("%%writefile: %w", err)
	}
	fmt.Fprintf(env.Stdout(), "%s %s\n", verb, name)
	return Output{}, nil
}
