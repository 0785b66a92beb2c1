package tests

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	browserChromium = "/usr/bin/chromium"
	browserJupyter  = "/usr/bin/jupyter"
	// browserMarkerEnv tags every process the notebook server starts
	// (kernels, executors) so that cleanup finds them even when they left
	// the server's process group.
	browserMarkerEnv = "GOACCEL_BROWSER_TEST_RUN"
)

// requireBrowserTools skips the test when Chromium or Jupyter is missing.
func requireBrowserTools(t *testing.T) {
	t.Helper()
	for _, p := range []string{browserChromium, browserJupyter} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("browser test needs %s (apt-get install chromium jupyter-notebook): %v", p, err)
		}
	}
}

// installGoaccelKernel builds cmd/goaccel and installs its kernelspec into
// dataDir, the JUPYTER_DATA_DIR the notebook server will use.
func installGoaccelKernel(t *testing.T, dataDir string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "goaccel")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/goaccel")
	build.Dir = ".." // the module root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/goaccel: %v\n%s", err, out)
	}
	t.Logf("built goaccel in %v", time.Since(start).Round(time.Millisecond))

	install := exec.CommandContext(ctx, bin, "install")
	install.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("goaccel install (JUPYTER_DATA_DIR=%s): %v\n%s", dataDir, err, out)
	}
	spec := filepath.Join(dataDir, "kernels", "goaccel", "kernel.json")
	raw, err := os.ReadFile(spec)
	if err != nil {
		t.Fatalf("goaccel install wrote no kernelspec: %v", err)
	}
	t.Logf("kernelspec %s: %s", spec, bytes.TrimSpace(raw))
}

// notebookServer is a running Jupyter server: the classic Notebook's, or
// jupyter_server serving JupyterLab and Notebook 7.
type notebookServer struct {
	port        int
	token       string
	notebookDir string // its root folder
	configDir   string // its JUPYTER_CONFIG_DIR
	logPath     string
	marker      string        // NAME=value in the environment of every process it starts
	readyWithin time.Duration // how long waitReady waits from the start (default 30 s)
	started     time.Time
	exited      <-chan struct{} // closed when the server process is gone
}

// notebookURL is the address that opens the notebook file name with the token.
func (s *notebookServer) notebookURL(name string) string {
	return fmt.Sprintf("http://127.0.0.1:%d/notebooks/%s?token=%s", s.port, name, s.token)
}

// logTail returns the last n lines of the server's log.
func (s *notebookServer) logTail(n int) string {
	raw, _ := os.ReadFile(s.logPath)
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// startNotebookServer starts Debian's classic `jupyter notebook` on a free
// port with private config, runtime and data directories; waitReady waits
// for it. Cleanup stops the server, its kernels and anything they started.
func startNotebookServer(t *testing.T, dataDir string) *notebookServer {
	t.Helper()
	return startJupyterServer(t, dataDir, browserJupyter, func(s *notebookServer) []string {
		return []string{"notebook",
			"--no-browser",
			"--ip=127.0.0.1",
			"--port=" + strconv.Itoa(s.port),
			"--NotebookApp.port_retries=0",
			"--NotebookApp.token=" + s.token,
			"--notebook-dir=" + s.notebookDir,
			"--allow-root",
		}
	})
}

// startJupyterServer starts jupyter (a path) as startNotebookServer does,
// with the arguments setup returns for the server's port, token and folders;
// setup runs once the folders exist (to write config into s.configDir, the
// server's JUPYTER_CONFIG_DIR) and before the server starts. Every process
// the server starts carries s.marker in its environment.
func startJupyterServer(t *testing.T, dataDir, jupyter string, setup func(s *notebookServer) []string) *notebookServer {
	t.Helper()
	root := t.TempDir()
	s := &notebookServer{
		port:        browserFreePort(t),
		token:       browserRandomHex(t, 16),
		notebookDir: filepath.Join(root, "notebooks"),
		configDir:   filepath.Join(root, "config"),
		logPath:     filepath.Join(root, "server.log"),
		marker:      browserMarkerEnv + "=" + browserRandomHex(t, 8),
	}
	for _, d := range []string{s.notebookDir, s.configDir, filepath.Join(root, "runtime"), filepath.Join(root, "ipython")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	logFile, err := os.Create(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jupyter, setup(s)...)
	cmd.Env = append(os.Environ(),
		"JUPYTER_DATA_DIR="+dataDir,
		"JUPYTER_CONFIG_DIR="+s.configDir,
		"JUPYTER_RUNTIME_DIR="+filepath.Join(root, "runtime"),
		"IPYTHONDIR="+filepath.Join(root, "ipython"),
		// Launches from cells keep their config and compiled workers here.
		"HF_HOME="+filepath.Join(root, "hf"),
		"GOACCEL_CACHE="+filepath.Join(root, "cache"),
		s.marker,
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// On Linux Pdeathsig stops the server (and, through its shutdown, the kernels)
	// even when the test binary is killed before its cleanups run. The
	// signal follows the thread that started the child, so that thread stays
	// locked until the server exits.
	cmd.SysProcAttr = serverAttr(syscall.SIGTERM)
	startErr := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		err := cmd.Start()
		startErr <- err
		if err == nil {
			cmd.Wait()
			close(exited)
		}
	}()
	if err := <-startErr; err != nil {
		logFile.Close()
		t.Fatalf("start %s: %v", jupyter, err)
	}
	t.Cleanup(func() {
		stopNotebookServer(t, cmd.Process.Pid, exited, strings.TrimPrefix(s.marker, browserMarkerEnv+"="))
		logFile.Close()
		if t.Failed() {
			t.Logf("%s log (last lines):\n%s", filepath.Base(jupyter), s.logTail(60))
		}
	})

	s.exited, s.started = exited, time.Now()
	return s
}

// waitReady waits until the server's API answers.
func (s *notebookServer) waitReady(ctx context.Context, t *testing.T) {
	t.Helper()
	within := 30 * time.Second
	if s.readyWithin > 0 {
		within = s.readyWithin
	}
	deadline := s.started.Add(within)
	status := fmt.Sprintf("http://127.0.0.1:%d/api/status", s.port)
	for {
		err := browserGetOK(ctx, status, s.token)
		if err == nil {
			t.Logf("the Jupyter server answered %v after its start", time.Since(s.started).Round(time.Millisecond))
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("the Jupyter server did not answer %s within %v: %v\nlog:\n%s", status, within, err, s.logTail(40))
		}
		select {
		case <-s.exited:
			t.Fatalf("the Jupyter server exited before it served\nlog:\n%s", s.logTail(40))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stopNotebookServer asks the server to stop (SIGTERM lets it shut its
// kernels down), then kills its process group and every process that still
// carries the run's marker.
func stopNotebookServer(t *testing.T, pid int, exited <-chan struct{}, marker string) {
	syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Logf("jupyter notebook ignored SIGTERM for 10 s; killing it")
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	<-exited
	// Kernels run in their own sessions; the server shuts them down on
	// SIGTERM, but give them a moment before calling them leaked.
	var left []string
	for deadline := time.Now().Add(5 * time.Second); ; {
		left = browserMarkedProcesses(marker)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Logf("processes still running 5 s after the notebook server stopped (killed now): %s", strings.Join(left, "; "))
		for _, p := range left {
			pid, _ := strconv.Atoi(strings.Fields(p)[0])
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// browserMarkedProcesses lists "PID CMDLINE" of processes whose environment
// holds the marker.
func browserMarkedProcesses(marker string) []string {
	want := []byte(browserMarkerEnv + "=" + marker)
	entries, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
				found = append(found, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
				break
			}
		}
	}
	return found
}

var browserHTTP = &http.Client{Timeout: 2 * time.Second}

func browserGetOK(ctx context.Context, url, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+token)
	resp, err := browserHTTP.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	return nil
}

func browserFreePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func browserRandomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// writeBrowserNotebook writes the test notebook, with k's kernelspec and its
// first four cells, into dir and returns its file name.
func writeBrowserNotebook(t *testing.T, dir string, k browserKernel) string {
	t.Helper()
	type cell struct {
		CellType       string         `json:"cell_type"`
		ExecutionCount *int           `json:"execution_count"`
		Metadata       map[string]any `json:"metadata"`
		Outputs        []any          `json:"outputs"`
		Source         string         `json:"source"`
	}
	var cells []cell
	for _, src := range []string{k.printCell, k.resultCell, k.htmlCell, k.errorCell} {
		cells = append(cells, cell{CellType: "code", Metadata: map[string]any{}, Outputs: []any{}, Source: src})
	}
	nb := map[string]any{
		"nbformat":       4,
		"nbformat_minor": 4,
		"metadata": map[string]any{
			"kernelspec":    map[string]string{"name": k.name, "display_name": k.displayName, "language": k.language},
			"language_info": map[string]string{"name": k.language},
		},
		"cells": cells,
	}
	raw, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	const name = "browser.ipynb"
	if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// browserLog collects lines from goroutines for a failure report.
type browserLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *browserLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) < 200 {
		l.lines = append(l.lines, fmt.Sprintf(format, args...))
	}
}

func (l *browserLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
