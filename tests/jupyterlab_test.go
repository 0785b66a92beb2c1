package tests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// jupyterlabClientDir holds the Node client and its pinned npm packages
// (@jupyterlab/services, ws), installed by scripts/deps.sh (npm ci).
const jupyterlabClientDir = "jupyterlab"

// TestJupyterLabsKernelClientDrivesGoaccel runs tests/jupyterlab/client.mjs:
// JupyterLab's own kernel client (@jupyterlab/services, in Node) drives a
// goaccel kernel through each stack's Jupyter server on loopback as
// JupyterLab does (Debian's classic Notebook 6.4 server, and the PyPI
// stack's jupyter_server 2, which serves JupyterLab 4) — start, execute with
// streams, execute_result, display_data and update_display_data, an error,
// complete and inspect with characters outside the BMP before the cursor
// (offsets converted between UTF-16 and code points as JupyterLab converts
// them), is_complete, history, interrupt, restart, shutdown.
func TestJupyterLabsKernelClientDrivesGoaccel(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (scripts/deps.sh installs nodejs): %v", err)
	}
	if _, err := os.Stat(filepath.Join(jupyterlabClientDir, "node_modules", "@jupyterlab", "services")); err != nil {
		t.Fatalf("tests/jupyterlab/node_modules lacks @jupyterlab/services: run scripts/deps.sh (it runs npm ci there): %v", err)
	}
	dataDir := t.TempDir()
	installGoaccelKernel(t, dataDir)
	forEachStack(t, nil, func(t *testing.T, s jupyterStack) {
		var srv *notebookServer
		if s.name == "debian" {
			s.require(t, "notebook") // the classic Notebook 6.4 and its server
			srv = startNotebookServer(t, dataDir)
		} else {
			s.require(t, "jupyter_server")
			t.Logf("pypi stack: %s", s.versions("jupyter_server"))
			srv = startJupyterServer(t, dataDir, s.command("jupyter"), func(srv *notebookServer) []string {
				return []string{"server", "--no-browser", "--ip=127.0.0.1", "--port=" + strconv.Itoa(srv.port),
					"--ServerApp.port_retries=0", "--IdentityProvider.token=" + srv.token,
					"--ServerApp.root_dir=" + srv.notebookDir, "--allow-root"}
			})
			srv.readyWithin = 90 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		srv.waitReady(ctx, t)

		cmd := exec.CommandContext(ctx, node, "client.mjs")
		cmd.Dir = jupyterlabClientDir
		cmd.Env = append(os.Environ(),
			fmt.Sprintf("JUPYTER_BASE_URL=http://127.0.0.1:%d/", srv.port),
			"JUPYTER_TOKEN="+srv.token)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		t.Logf("client.mjs (%v):\n%s", time.Since(start).Round(time.Millisecond), out.String())
		if err != nil {
			t.Fatalf("JupyterLab's client failed (see the FAIL line above): %v", err)
		}
	})
}
