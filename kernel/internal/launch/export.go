package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/transfer"
)

// ExportRequest asks for a notebook function as a standalone program.
type ExportRequest struct {
	// Dir is the folder to write (created when missing).
	Dir string
	// Name is the function; Args its arguments (saved by value) and Call
	// the call as the notebook wrote it, for the comments.
	Name     string
	Args     []reflect.Value
	ArgNames []string
	Call     string
	// Options is the body of the notebook_launcher.Options literal the
	// program launches with, e.g. "NumProcesses: 2".
	Options string
	Record  *program.Record
}

// Export writes the program that runs r.Name, as `%accelerate export`
// does: main.go, notebook.go, go.mod, go.sum, the arguments (args.bin) and a
// README.md. It returns the files it wrote.
func Export(r ExportRequest) ([]string, error) {
	prog, err := r.Record.Program(r.Name)
	if err != nil {
		return nil, err
	}
	main, err := prog.ExportMain(r.Options, r.Call, len(r.Args) > 0)
	if err != nil {
		return nil, err
	}
	m, err := gobuild.FindModule()
	if err != nil {
		return nil, err
	}
	goMod, err := m.GoMod(modulePathFor(r.Dir), "A program exported from a goaccel notebook", nil)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", r.Name, err)
	}
	files := map[string][]byte{
		"main.go":        []byte(main),
		program.File:     []byte(prog.Source),
		"go.mod":         []byte(goMod),
		"go.sum":         m.GoSum(),
		"README.md":      []byte(readme(r, m)),
		program.ArgsFile: nil,
	}
	if len(r.Args) > 0 {
		names := job.ArgLabels(r.Name, len(r.Args), r.ArgNames)
		if files[program.ArgsFile], err = transfer.Marshal(r.Args, names); err != nil {
			return nil, err
		}
	} else {
		delete(files, program.ArgsFile)
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("make %s: %w", r.Dir, err)
	}
	var written []string
	for _, name := range []string{"main.go", program.File, "go.mod", "go.sum", program.ArgsFile, "README.md"} {
		content, ok := files[name]
		if !ok {
			continue
		}
		path := filepath.Join(r.Dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return written, fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
	}
	return written, nil
}

var notModuleChar = regexp.MustCompile(`[^a-z0-9._-]+`)

// modulePathFor names the exported program's module after its folder.
func modulePathFor(dir string) string {
	base := notModuleChar.ReplaceAllString(strings.ToLower(filepath.Base(filepath.Clean(dir))), "-")
	if strings.Trim(base, ".-") == "" {
		base = "program"
	}
	return "notebook.local/" + strings.Trim(base, ".-")
}

func readme(r ExportRequest, m gobuild.Module) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, exported from a goaccel notebook\n\n", r.Name)
	fmt.Fprintf(&b, "`main.go` runs `%s` on worker processes; `%s` holds the notebook's declarations that it uses\n", r.Call, program.File)
	b.WriteString("(each with a comment naming its cell and line)")
	if len(r.Args) > 0 {
		fmt.Fprintf(&b, ", and `%s` the call's arguments as the notebook held them", program.ArgsFile)
	}
	b.WriteString(".\n\n```sh\n")
	b.WriteString("go run .                                     # starts the workers itself (the Options in main.go)\n")
	b.WriteString("goaccel launch --num_processes 4 .           # accelerate launch's flags\n")
	b.WriteString("go build -o train .\n")
	b.WriteString("torchrun --nproc_per_node 4 --no-python ./train  # any launcher that sets RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT\n")
	b.WriteString("srun --ntasks-per-node 4 ./train             # Slurm (set MASTER_ADDR and MASTER_PORT), or mpirun\n```\n")
	fmt.Fprintf(&b, "\n`go.mod` builds this program against the goaccel source the notebook ran with (%s), with\n", m.Dir)
	b.WriteString("the module versions goaccel was built with and `go.sum` their checksums, so these commands need no\n" +
		"network on the machine that built goaccel. Elsewhere, point the replace directives at a goaccel checkout there.\n")
	return b.String()
}
