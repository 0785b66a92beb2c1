package launchcli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
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
	if gpus := FindGPUs(); len(gpus) == 0 {
		fmt.Fprintln(out, "- GPUs: none found (no NVIDIA driver device under /proc/driver/nvidia/gpus)")
	} else {
		fmt.Fprintf(out, "- GPUs: %d: %s\n", len(gpus), strings.Join(gpus, "; "))
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

// FindGPUs lists NVIDIA GPUs from the driver's /proc entries (no NVML call,
// which kills the process when the driver library is absent).
func FindGPUs() []string {
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
