package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnableNonfreeAddsCUDAsComponentsToDebianSources runs scripts/enable-nonfree.sh (how CI
// gets nvidia-cuda-toolkit) on copies of both apt source formats: Debian entries with main gain
// contrib and non-free once, everything else is left alone.
func TestEnableNonfreeAddsCUDAsComponentsToDebianSources(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "sources.list")
	deb822 := filepath.Join(dir, "debian.sources")
	os.WriteFile(list, []byte(`deb http://deb.debian.org/debian bookworm main non-free-firmware
deb-src http://deb.debian.org/debian bookworm main contrib
# deb http://deb.debian.org/debian bookworm main
deb https://apt.example.com/stable ./
deb http://security.debian.org/debian-security bookworm-security main contrib non-free
`), 0o644)
	os.WriteFile(deb822, []byte(`Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: https://repo.example.com/apt
Suites: stable
Components: main

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main non-free-firmware
`), 0o644)
	for run := 0; run < 2; run++ {
		out, err := exec.Command("bash", "../scripts/enable-nonfree.sh", list, deb822).CombinedOutput()
		if err != nil {
			t.Fatalf("enable-nonfree.sh: %v\n%s", err, out)
		}
		if run == 1 && len(out) != 0 {
			t.Fatalf("second run changed files again:\n%s", out)
		}
	}
	got, _ := os.ReadFile(list)
	want := `deb http://deb.debian.org/debian bookworm main non-free-firmware contrib non-free
deb-src http://deb.debian.org/debian bookworm main contrib non-free
# deb http://deb.debian.org/debian bookworm main
deb https://apt.example.com/stable ./
deb http://security.debian.org/debian-security bookworm-security main contrib non-free
`
	if string(got) != want {
		t.Errorf("sources.list:\n%s\nwant\n%s", got, want)
	}
	got, _ = os.ReadFile(deb822)
	for _, w := range []string{"Suites: bookworm bookworm-updates\nComponents: main contrib non-free\n", "Suites: stable\nComponents: main\n",
		"Components: main non-free-firmware contrib non-free\n"} {
		if !strings.Contains(string(got), w) {
			t.Errorf("debian.sources lacks %q:\n%s", w, got)
		}
	}
}

// TestRunRequirementsPinTheTestStacksVersions checks that what `make run JUPYTER_STACK=pypi`
// installs (scripts/requirements-run.txt) is a subset of the PyPI stack the tests run
// (tests/requirements-jupyter.txt) at the same versions, and that both pin every package.
func TestRunRequirementsPinTheTestStacksVersions(t *testing.T) {
	pins := func(path string) map[string]string {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, line := range strings.Split(string(raw), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			name, version, ok := strings.Cut(line, "==")
			if !ok || version == "" {
				t.Errorf("%s: %q is not pinned (NAME==VERSION)", path, line)
				continue
			}
			// PyPI names compare case-insensitively, with - and _ alike.
			out[strings.ReplaceAll(strings.ToLower(name), "_", "-")] = version
		}
		return out
	}
	full, run := pins("requirements-jupyter.txt"), pins("../scripts/requirements-run.txt")
	for _, want := range []string{"jupyter-client", "nbconvert", "nbclient"} {
		if run[want] == "" {
			t.Errorf("scripts/requirements-run.txt lacks %s", want)
		}
	}
	for name, v := range run {
		if full[name] != v {
			t.Errorf("scripts/requirements-run.txt pins %s==%s, tests/requirements-jupyter.txt %q", name, v, full[name])
		}
	}
	for name, v := range map[string]string{"jupyterlab": "4.6.6", "notebook": "7.6.5", "jupyter-server": "2.21.1",
		"jupyter-client": "8.10.0", "nbclient": "0.11.0", "nbconvert": "7.17.2", "ipykernel": "7.4.0",
		"jupyter-kernel-test": "0.7.0", "ipywidgets": "8.1.9", "jupyterlab-widgets": "3.0.17",
		"safetensors": "0.8.0", "playwright": "1.65.2"} {
		if full[name] != v {
			t.Errorf("tests/requirements-jupyter.txt pins %s at %q, want %s", name, full[name], v)
		}
	}
}
