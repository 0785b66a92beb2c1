package tests

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/syncbuf"
)

// hostPair is two "hosts" on this machine: two Linux network namespaces
// joined by a veth pair, each with a private test address (198.18.0.0/15,
// RFC 2544's benchmarking range) that exists only inside the namespaces.
// Processes started on a host also get their own hostname (a UTS
// namespace), as separate machines or containers have, so goaccel sees two
// hosts and not one.
type hostPair struct {
	ns, veth, addr, hostname [2]string
}

// requireLinux skips t, saying so, off Linux: what names (network namespaces, a Slurm cluster
// of them) exists only there.
func requireLinux(t *testing.T, what string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("skipping: %s need Linux; this is %s", what, runtime.GOOS)
	}
}

// newHostPair creates the namespaces and the link, and removes them when the
// test ends, whatever happens. It skips the test only where namespaces
// cannot be created (not root, or no permission inside a container).
func newHostPair(t *testing.T) *hostPair {
	t.Helper()
	requireLinux(t, "two hosts from network namespaces")
	for _, tool := range []string{"ip", "unshare"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: install iproute2 and util-linux (scripts/deps.sh does): %v", tool, err)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("skipping: creating network namespaces needs root (the multi-node test runs as root, as in CI)")
	}
	var id [5]byte
	rand.Read(id[:])
	tag := hex.EncodeToString(id[:4])
	h := &hostPair{}
	for i, side := range []string{"a", "b"} {
		h.ns[i] = "goaccel-test-" + tag + "-" + side
		h.veth[i] = "ga" + tag + side // at most 15 characters
		h.addr[i] = fmt.Sprintf("198.18.%d.%d", id[4], i+1)
		h.hostname[i] = "node-" + side + "-" + tag
	}
	t.Cleanup(func() {
		for i := range h.ns {
			exec.Command("ip", "netns", "del", h.ns[i]).Run() // also destroys the veth inside
			exec.Command("ip", "link", "del", h.veth[i]).Run()
		}
	})
	if out, err := exec.Command("ip", "netns", "add", h.ns[0]).CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot create a network namespace here (ip netns add: %v: %s)", err, bytes.TrimSpace(out))
	}
	h.ip(t, "netns", "add", h.ns[1])
	h.ip(t, "link", "add", h.veth[0], "type", "veth", "peer", "name", h.veth[1])
	for i := range h.ns {
		h.ip(t, "link", "set", h.veth[i], "netns", h.ns[i])
		h.ip(t, "-n", h.ns[i], "addr", "add", h.addr[i]+"/30", "dev", h.veth[i])
		h.ip(t, "-n", h.ns[i], "link", "set", h.veth[i], "up")
		h.ip(t, "-n", h.ns[i], "link", "set", "lo", "up")
	}
	return h
}

func (h *hostPair) ip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
}

// command starts argv on host i (its network namespace and hostname).
func (h *hostPair) command(i int, env []string, argv ...string) *exec.Cmd {
	args := append([]string{"netns", "exec", h.ns[i], "unshare", "--uts", "sh", "-c", `hostname "$0" && exec "$@"`, h.hostname[i]}, argv...)
	cmd := exec.Command("ip", args...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// linkBytes returns the bytes host 0's end of the link sent and received.
func (h *hostPair) linkBytes(t *testing.T) (tx, rx uint64) {
	t.Helper()
	out, err := exec.Command("ip", "-n", h.ns[0], "-s", "-j", "link", "show", "dev", h.veth[0]).Output()
	if err != nil {
		t.Fatalf("read the link's byte counters: %v", err)
	}
	var links []struct {
		Stats struct {
			RX struct{ Bytes uint64 } `json:"rx"`
			TX struct{ Bytes uint64 } `json:"tx"`
		} `json:"stats64"`
	}
	if err := json.Unmarshal(out, &links); err != nil || len(links) != 1 {
		t.Fatalf("parse ip -j -s link: %v: %s", err, out)
	}
	return links[0].Stats.TX.Bytes, links[0].Stats.RX.Bytes
}

// pids lists the processes left in host i's namespace.
func (h *hostPair) pids(t *testing.T, i int) string {
	t.Helper()
	out, err := exec.Command("ip", "netns", "pids", h.ns[i]).Output()
	if err != nil {
		t.Fatalf("ip netns pids %s: %v", h.ns[i], err)
	}
	return strings.TrimSpace(string(out))
}

// rank is one started process of a job.
type rank struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{}
	err  error
	end  time.Time
}

// job is a set of ranks started the way Slurm or torchrun start them: each
// with RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR and
// MASTER_PORT in its environment.
type job struct{ ranks []*rank }

// startJob starts world ranks of bin, placed by host(r) with localSize per
// host; extra is added to every rank's environment.
func startJob(t *testing.T, h *hostPair, bin string, world, localSize int, host func(r int) int, master string, extra []string, args ...string) *job {
	t.Helper()
	j := &job{}
	for r := 0; r < world; r++ {
		env := append([]string{
			fmt.Sprintf("RANK=%d", r), fmt.Sprintf("WORLD_SIZE=%d", world),
			fmt.Sprintf("LOCAL_RANK=%d", r%localSize), fmt.Sprintf("LOCAL_WORLD_SIZE=%d", localSize),
			"MASTER_ADDR=" + master, "MASTER_PORT=29500",
		}, extra...)
		cmd := h.command(host(r), env, append([]string{bin}, args...)...)
		rk := &rank{cmd: cmd, out: &syncbuf.Buffer{}, done: make(chan struct{})}
		cmd.Stdout, cmd.Stderr = rk.out, rk.out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			rk.err = cmd.Wait()
			rk.end = time.Now()
			close(rk.done)
		}()
		j.ranks = append(j.ranks, rk)
	}
	t.Cleanup(func() {
		for _, rk := range j.ranks {
			rk.cmd.Process.Kill()
			<-rk.done
		}
	})
	return j
}

// wait waits for every rank and fails the test if one fails or takes longer than d.
func (j *job) wait(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for r, rk := range j.ranks {
		select {
		case <-rk.done:
			if rk.err != nil {
				t.Fatalf("rank %d: %v\n%s", r, rk.err, rk.out.String())
			}
		case <-deadline:
			t.Fatalf("rank %d did not finish within %v:\n%s", r, d, rk.out.String())
		}
	}
}

// weights returns the final weights rank 0 printed.
func (j *job) weights(t *testing.T) [][]float32 {
	t.Helper()
	for _, line := range strings.Split(j.ranks[0].out.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "WEIGHTS "); ok {
			var w [][]float32
			if err := json.Unmarshal([]byte(v), &w); err != nil {
				t.Fatal(err)
			}
			return w
		}
	}
	t.Fatalf("rank 0 printed no weights:\n%s", j.ranks[0].out.String())
	return nil
}

// Two hosts of two ranks each, joined by a real network link: the job
// trains to the same weights as on one host, its all-reduce is hierarchical
// (shared memory on each host, then across the link between the hosts'
// leaders: fewer bytes cross the link than with TCP between every rank), and
// cutting the link mid-run makes every rank fail, naming a rank on the other
// side, within the configured timeout, with no process left behind.
func TestTwoHostsTrainOverARealLinkAndFailCleanlyWhenItIsCut(t *testing.T) {
	h := newHostPair(t)
	bin := buildProgram(t, "./testdata/multinode")
	token := make([]byte, 16)
	rand.Read(token)
	const timeout = 30 * time.Second
	env := []string{"GOACCEL_STORE_TOKEN=" + hex.EncodeToString(token), "GOACCEL_DIST_TIMEOUT=" + timeout.String()}
	byHost := func(r int) int { return r / 2 }

	one := startJob(t, h, bin, 4, 4, func(int) int { return 0 }, "127.0.0.1", env)
	one.wait(t, 3*time.Minute)
	ref := one.weights(t)

	crossed := map[string]uint64{}
	for _, transport := range []string{"auto", "tcp"} {
		tx0, rx0 := h.linkBytes(t)
		j := startJob(t, h, bin, 4, 2, byHost, h.addr[0], append(env, "GOACCEL_DIST_TRANSPORT="+transport))
		j.wait(t, 3*time.Minute)
		tx1, rx1 := h.linkBytes(t)
		crossed[transport] = (tx1 - tx0) + (rx1 - rx0)
		if transport != "auto" {
			continue
		}
		for r, rk := range j.ranks {
			if !strings.Contains(rk.out.String(), "transport=shm+tcp") {
				t.Errorf("rank %d did not use the hierarchical all-reduce:\n%s", r, rk.out.String())
			}
		}
		got := j.weights(t)
		for i := range ref {
			for k := range ref[i] {
				if d := got[i][k] - ref[i][k]; d > 1e-5 || d < -1e-5 {
					t.Fatalf("parameter %d[%d]: two hosts %v, one host %v", i, k, got[i][k], ref[i][k])
				}
			}
		}
	}
	// 3 epochs of 8 steps, each all-reducing ~75k float32 gradients: between
	// two leaders that is ~300 KB each way per step.
	const minCrossing = 24 * 2 * 75_000 * 4 * 9 / 10
	t.Logf("bytes across the link: hierarchical %d, TCP between every rank %d", crossed["auto"], crossed["tcp"])
	if crossed["auto"] < minCrossing {
		t.Errorf("only %d bytes crossed the link during training; the all-reduce did not go between the hosts", crossed["auto"])
	}
	if crossed["auto"]*5 > crossed["tcp"]*4 {
		t.Errorf("the hierarchical all-reduce sent %d bytes across the link, not clearly fewer than TCP between every rank (%d)", crossed["auto"], crossed["tcp"])
	}

	j := startJob(t, h, bin, 4, 2, byHost, h.addr[0], env, "-forever")
	deadline := time.Now().Add(3 * time.Minute)
	for _, rk := range j.ranks {
		for !strings.Contains(rk.out.String(), "EPOCH 1") {
			if time.Now().After(deadline) {
				t.Fatalf("the job did not get going:\n%s", rk.out.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	cut := time.Now()
	h.ip(t, "-n", h.ns[0], "link", "set", h.veth[0], "down")
	var wg sync.WaitGroup
	for r, rk := range j.ranks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-rk.done:
			case <-time.After(timeout + 15*time.Second):
				t.Errorf("rank %d still running %v after the link was cut:\n%s", r, timeout+15*time.Second, rk.out.String())
				return
			}
			took := rk.end.Sub(cut)
			other := [2]string{"rank 2 lost", "rank 3 lost"}
			if r >= 2 {
				other = [2]string{"rank 0 lost", "rank 1 lost"}
			}
			out := rk.out.String()
			var ee *exec.ExitError
			switch {
			case !errors.As(rk.err, &ee):
				t.Errorf("rank %d ended with %v, not a failure:\n%s", r, rk.err, out)
			case !strings.Contains(out, other[0]) && !strings.Contains(out, other[1]):
				t.Errorf("rank %d's error names no rank of the other host:\n%s", r, lastLines(out, 5))
			case !strings.Contains(out, "stopped answering"):
				t.Errorf("rank %d's error does not say the other host stopped answering:\n%s", r, lastLines(out, 5))
			case took > timeout:
				t.Errorf("rank %d failed %v after the cut, later than the %v timeout", r, took.Round(time.Millisecond), timeout)
			default:
				t.Logf("rank %d failed %v after the cut: %s", r, took.Round(time.Millisecond), lastLines(out, 1))
			}
		}()
	}
	wg.Wait()
	for i := range h.ns {
		if left := h.pids(t, i); left != "" {
			t.Errorf("processes left in %s after the job failed: %s", h.hostname[i], left)
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// buildProgram builds the Go program in dir into a temporary folder.
func buildProgram(t *testing.T, dir string) string {
	t.Helper()
	bin := t.TempDir() + "/prog"
	if out, err := exec.Command("go", "build", "-o", bin, dir).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	return bin
}
