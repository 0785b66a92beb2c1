package process

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"syscall"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/derive"
	"github.com/goaccel/goaccel/kernel/internal/launch"
)

// RunDerivedExecutor is the main of a derived executor (the program
// package kernel/internal/derive generates): spec is its description as
// JSON, symbols the tables of its packages. It runs the executor, the
// interpreted workers of a launch and the symbol extraction of a further
// derivation itself, each interpreter with symbols beside goaccel's tables,
// and hands every other command to the goaccel binary it was derived from.
func RunDerivedExecutor(spec string, symbols map[string]map[string]reflect.Value) int {
	var s derive.Spec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		return fail(fmt.Errorf("a derived executor with a bad description: %w", err))
	}
	tables := interp.Exports(symbols)
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case derive.ExtractCommand:
			return RunExtract(os.Args[2:])
		case launch.WorkerCommand: // a launch's interpreted worker, which may call the packages
			return launch.WorkerMain(tables)
		}
	}
	if len(os.Args) == 3 && os.Args[1] == ExecutorCommand {
		s.Base = os.Args[2] // see derive.Spec.Command
		os.Setenv(derive.EnvBase, s.Base)
		return runExecutor(s, tables)
	}
	base := os.Getenv(derive.EnvBase)
	if base == "" {
		return fail(fmt.Errorf("a derived executor runs the goaccel binary it was derived from for %v, and %s does not name it: run goaccel instead", os.Args[1:], derive.EnvBase))
	}
	err := syscall.Exec(base, append([]string{base}, os.Args[1:]...), os.Environ())
	return fail(fmt.Errorf("run the goaccel binary this executor was derived from (%s): %w", base, err))
}

// RunExtract is the derived build's symbol extraction (ExtractCommand): run
// in the build's folder, it writes there the yaegi symbol tables of the
// packages args name, and returns the exit status.
func RunExtract(args []string) int {
	if err := derive.Extract(".", args); err != nil {
		return fail(err)
	}
	return 0
}
