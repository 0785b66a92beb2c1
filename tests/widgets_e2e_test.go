package tests

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"
)

// TestWidgetsThroughJupyterClient drives Jupyter comms and the ipywidgets 8
// protocol through jupyter_client (tests/widgets_e2e.py), as a front end
// sends them: comm_info with its target filter, updates echoed and read by
// the next cell, corrections, request_state, binary buffers, clicks whose
// callbacks run after the running cell into the cell's area, a panicking
// callback, Output capture, Interact, the control comm, bad messages, and a
// launched worker's widget with the Stop button of its launch.
func TestWidgetsThroughJupyterClient(t *testing.T) {
	dataDir := e2eKernel(t)
	forEachStack(t, clientModules, func(t *testing.T, s jupyterStack) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.python, "widgets_e2e.py")
		cmd.Env = s.env(launchEnv(t, dataDir))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		t.Logf("widgets_e2e.py output:\n%s", out.String())
		if err != nil {
			t.Fatalf("widgets_e2e.py failed (see FAIL lines above): %v", err)
		}
	})
}
