package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/goaccel/goaccel/cuda"
	"github.com/goaccel/goaccel/cuda/discover"
)

// EnvCommand runs `goaccel env [--config_file PATH]`: what a bug report needs.
func EnvCommand(args []string, out io.Writer) error {
	path := DefaultConfigFile()
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--config_file" && i+1 < len(args):
			path = args[i+1]
			i++
		case strings.HasPrefix(a, "--config_file="):
			path = strings.TrimPrefix(a, "--config_file=")
		default:
			return fmt.Errorf("goaccel env: unknown argument %q (only --config_file PATH)", a)
		}
	}
	fmt.Fprintln(out, "Copy-and-paste the text below in your GitHub issue")
	fmt.Fprintln(out)
	fmt.Fprintf(out, "- goaccel version: %s\n", version())
	fmt.Fprintf(out, "- Go version: %s\n", runtime.Version())
	fmt.Fprintf(out, "- Platform: %s %s/%s\n", osName(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(out, "- CPU: %s (%d logical cores)\n", cpuModel(), runtime.NumCPU())
	fmt.Fprintf(out, "- RAM: %s\n", memTotal())
	if _, err := discover.GPUs(); err == nil {
		fmt.Fprintf(out, "- GPUs: %s\n", discover.Report())
	} else if gpus := FindGPUs(); len(gpus) == 0 {
		fmt.Fprintf(out, "- GPUs: none found (%v; no device under /proc/driver/nvidia/gpus)\n", err)
	} else {
		fmt.Fprintf(out, "- GPUs: %d: %s (%v)\n", len(gpus), strings.Join(gpus, "; "), err)
	}
	if n := cuda.DeviceCount(); n > 0 {
		fmt.Fprintf(out, "- CUDA for goaccel: %d usable GPU(s)\n", n)
	} else {
		fmt.Fprintf(out, "- CUDA for goaccel: not usable (%v); training runs on the CPU\n", cuda.Err())
	}
	for _, k := range []string{"CUDA_VISIBLE_DEVICES", "HF_HOME", "ACCELERATE_MIXED_PRECISION"} {
		if v, ok := os.LookupEnv(k); ok {
			fmt.Fprintf(out, "- %s: %s\n", k, v)
		}
	}
	b, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		fmt.Fprintf(out, "- goaccel config file %s: not found (run `goaccel config`)\n", path)
	case err != nil:
		fmt.Fprintf(out, "- goaccel config file %s: %v\n", path, err)
	default:
		fmt.Fprintf(out, "- goaccel config file %s:\n", path)
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			fmt.Fprintf(out, "\t%s\n", l)
		}
	}
	return nil
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "unknown"
}

// procField returns the value of the first "key: value" line of file whose key is key.
func procField(file, key string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func osName() string {
	f, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return runtime.GOOS
	}
	for _, l := range strings.Split(string(f), "\n") {
		if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return runtime.GOOS
}

func cpuModel() string {
	if m := procField("/proc/cpuinfo", "model name"); m != "" {
		return m
	}
	return "unknown"
}

func memTotal() string {
	v := procField("/proc/meminfo", "MemTotal")
	var kb int64
	if _, err := fmt.Sscanf(v, "%d kB", &kb); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
}

// FindGPUs lists the NVIDIA GPUs, through NVML when it works, else from the
// driver's /proc entries: the default number of processes of `goaccel config`.
func FindGPUs() []string {
	if gpus, err := discover.GPUs(); err == nil {
		out := make([]string, len(gpus))
		for i, g := range gpus {
			out[i] = fmt.Sprintf("%s (%s)", g.Name, g.UUID)
		}
		return out
	}
	dirs, _ := filepath.Glob("/proc/driver/nvidia/gpus/*")
	var out []string
	for _, d := range dirs {
		model := procField(filepath.Join(d, "information"), "Model")
		if model == "" {
			model = "NVIDIA GPU"
		}
		out = append(out, fmt.Sprintf("%s (bus %s)", model, filepath.Base(d)))
	}
	return out
}
