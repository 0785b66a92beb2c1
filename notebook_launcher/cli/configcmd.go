package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ConfigCommand runs `goaccel config [default] [--config_file PATH] [--mixed_precision MP]`.
// Without "default" it asks the questions of `accelerate config` on in.
func ConfigCommand(args []string, in io.Reader, out io.Writer) error {
	isDefault := len(args) > 0 && args[0] == "default"
	if isDefault {
		args = args[1:]
	}
	fs := flag.NewFlagSet("goaccel config", flag.ContinueOnError)
	fs.SetOutput(out)
	path := fs.String("config_file", DefaultConfigFile(), "where to write the YAML configuration")
	mp := fs.String("mixed_precision", "no", "with default: no, fp16 or bf16")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var c Config
	if isDefault {
		c = BasicConfig(*mp, len(FindGPUs()))
	} else {
		var err error
		if c, err = askConfig(bufio.NewReader(in), out); err != nil {
			return err
		}
	}
	if err := SaveConfig(*path, c); err != nil {
		return err
	}
	fmt.Fprintf(out, "goaccel configuration saved at %s\n", *path)
	return nil
}

// askConfig asks the questions of `accelerate config` for a local machine.
func askConfig(r *bufio.Reader, out io.Writer) (Config, error) {
	q := &asker{r: r, out: out}
	c := BasicConfig("no", 0)
	c.UseCPU = false
	switch q.choice("Which type of machine are you using?", []string{"No distributed training", "multi-CPU", "multi-GPU"}, 0) {
	case 1:
		c.DistributedType, c.UseCPU = "MULTI_CPU", true
	case 2:
		c.DistributedType = "MULTI_GPU"
	default:
		c.UseCPU = !q.yes("Do you want to run your training on GPU? [yes/NO]", false)
	}
	if c.DistributedType != "NO" {
		c.NumMachines = q.integer("How many different machines will you use (use more than 1 for multi-node training)? [1]", 1)
		if c.NumMachines > 1 {
			c.MachineRank = q.integer("What is the rank of this machine? [0]", 0)
			c.MainProcessIP = q.text("What is the IP address of the machine that will host the main process?", "")
			c.MainProcessPort = q.integer("What is the port you will use to communicate with the main process? [29500]", 29500)
		}
		c.NumProcesses = q.integer("How many processes in total will you use? [2]", 2)
		if c.DistributedType == "MULTI_GPU" {
			c.GPUIDs = q.text("What GPU(s) (by id) should be used for training on this machine as a comma-separated list? [all]", "all")
		}
	}
	c.MixedPrecision = []string{"no", "fp16", "bf16"}[q.choice("Do you wish to use mixed precision?", []string{"no", "fp16", "bf16"}, 0)]
	if q.err != nil {
		return Config{}, fmt.Errorf("read answers: %w", q.err)
	}
	return c, c.Validate()
}

// asker reads one answer per line; an empty line (or end of input) takes the default.
type asker struct {
	r   *bufio.Reader
	out io.Writer
	err error
}

func (q *asker) text(prompt, def string) string {
	fmt.Fprint(q.out, prompt+" ")
	line, err := q.r.ReadString('\n')
	if err != nil && err != io.EOF {
		q.err = err
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return def
	}
	return line
}

func (q *asker) integer(prompt string, def int) int {
	for tries := 0; tries < 3; tries++ {
		s := q.text(prompt, strconv.Itoa(def))
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return n
		}
		fmt.Fprintf(q.out, "Please enter a whole number (got %q).\n", s)
	}
	return def
}

func (q *asker) yes(prompt string, def bool) bool {
	s := strings.ToLower(q.text(prompt, ""))
	if s == "" {
		return def
	}
	return s == "y" || s == "yes"
}

func (q *asker) choice(prompt string, options []string, def int) int {
	fmt.Fprintln(q.out, prompt)
	for i, o := range options {
		fmt.Fprintf(q.out, "  [%d] %s\n", i, o)
	}
	for tries := 0; tries < 3; tries++ {
		s := q.text(fmt.Sprintf("Enter a number [%d]:", def), strconv.Itoa(def))
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < len(options) {
			return n
		}
		for i, o := range options {
			if strings.EqualFold(s, o) {
				return i
			}
		}
		fmt.Fprintf(q.out, "Please enter a number between 0 and %d.\n", len(options)-1)
	}
	return def
}
