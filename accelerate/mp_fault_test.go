package accelerate

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// faultWorker trains until killed; rank 1 stops before its fourth all-reduce
// and says so in a file, so rank 0 is inside the all-reduce when rank 1 dies.
func faultWorker(dir string) {
	c := group()
	acc := newWithComm(withCfg(Config{}), c)
	var model nn.Module = nn.NewLinear(4, 1)
	loader := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 8})
	acc.Prepare(&model, &loader)
	for step := 0; ; step++ {
		if !loader.Next() {
			continue
		}
		x, y := loader.Batch()
		if c.Rank() == 1 && step == 3 {
			_ = os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			time.Sleep(time.Hour)
		}
		acc.Backward(tensors.MSE(model.Forward(x), y))
	}
}

func TestKilledRankMakesTheOthersFailNamingItWithin10s(t *testing.T) {
	if dir := os.Getenv("ACC_FAULT_DIR"); dir != "" {
		faultWorker(dir)
		return
	}
	if testing.Short() {
		t.Skip("multi-process test")
	}
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var stderr [2]bytes.Buffer
	var cmds [2]*exec.Cmd
	for r := 0; r < 2; r++ {
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$")
		cmd.Env = append(os.Environ(), "ACC_FAULT_DIR="+dir, "RANK="+strconv.Itoa(r), "LOCAL_RANK="+strconv.Itoa(r),
			"WORLD_SIZE=2", "LOCAL_WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1", "MASTER_PORT="+strconv.Itoa(port),
			"GOACCEL_STORE_TOKEN=fault-test-token")
		cmd.Stderr, cmd.Stdout = &stderr[r], &stderr[r]
		cmd.SysProcAttr = childAttr()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[r] = cmd
		defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _, _ = cmd.Process.Wait() }()
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rank 1 never reached the kill point; rank 0 output:\n%s\nrank 1 output:\n%s", stderr[0].String(), stderr[1].String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // let rank 0 enter the all-reduce
	killed := time.Now()
	_ = cmds[1].Process.Kill()
	done := make(chan error, 1)
	go func() { done <- cmds[0].Wait() }()
	select {
	case err := <-done:
		took := time.Since(killed)
		out := stderr[0].String()
		if err == nil {
			t.Fatalf("rank 0 exited cleanly after its peer died; output:\n%s", out)
		}
		if !strings.Contains(out, "rank 1") {
			t.Errorf("rank 0's error does not name rank 1:\n%s", out)
		}
		t.Logf("rank 0 failed %v after rank 1 was killed: %s", took.Round(time.Millisecond), firstLine(out, "accelerate:"))
	case <-time.After(10 * time.Second):
		t.Fatalf("rank 0 still running 10s after rank 1 was killed; output:\n%s", stderr[0].String())
	}
}

func firstLine(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, prefix) {
			return l
		}
	}
	return fmt.Sprintf("(no line with %q)", prefix)
}
