package dist

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/syncbuf"
)

// Multi-process tests re-execute this test binary; envScenario selects what
// the worker runs (see worker_test.go).
const envScenario = "GOACCEL_DIST_TEST_SCENARIO"

func TestMain(m *testing.M) {
	if s := os.Getenv(envScenario); s != "" {
		os.Exit(runWorker(s))
	}
	os.Exit(m.Run())
}

func freePort(t *testing.T) int { return freePortTB(t) }

func freePortTB(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// job is a group of worker processes started by a test.
type job struct {
	t     *testing.T
	cmds  []*exec.Cmd
	out   []*syncBuffer
	lines chan string // every worker line, prefixed "rank: "
	done  []chan error
}

type syncBuffer = syncbuf.Buffer

// start runs n workers of scenario with torchrun-style variables plus extra.
func start(t *testing.T, scenario string, n int, extra ...string) *job {
	t.Helper()
	ranks := make([]int, n)
	for r := range ranks {
		ranks[r] = r
	}
	return startRanks(t, scenario, n, ranks, extra...)
}

// startRanks runs the given ranks of an n-process job; j.cmds[i] is ranks[i].
func startRanks(t *testing.T, scenario string, n int, ranks []int, extra ...string) *job {
	t.Helper()
	port := freePort(t)
	token := NewToken()
	j := &job{t: t, lines: make(chan string, 1000)}
	for _, r := range ranks {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(),
			envScenario+"="+scenario,
			"RANK="+strconv.Itoa(r), "WORLD_SIZE="+strconv.Itoa(n),
			"LOCAL_RANK="+strconv.Itoa(r), "LOCAL_WORLD_SIZE="+strconv.Itoa(n),
			"MASTER_ADDR=127.0.0.1", "MASTER_PORT="+strconv.Itoa(port),
			EnvStoreToken+"="+token,
		)
		for _, e := range extra {
			// "KEY=@a,b,c" gives rank r the r-th value.
			if k, v, _ := strings.Cut(e, "="); strings.HasPrefix(v, "@") {
				e = k + "=" + strings.Split(v[1:], ",")[r]
			}
			cmd.Env = append(cmd.Env, e)
		}
		buf := &syncBuffer{}
		pr, pw := io.Pipe()
		cmd.Stdout = io.MultiWriter(buf, pw)
		cmd.Stderr = buf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			sc := bufio.NewScanner(pr)
			for sc.Scan() {
				select {
				case j.lines <- fmt.Sprintf("%d: %s", r, sc.Text()):
				default:
				}
			}
		}()
		done := make(chan error, 1)
		go func() { err := cmd.Wait(); pw.Close(); done <- err }()
		j.cmds, j.out, j.done = append(j.cmds, cmd), append(j.out, buf), append(j.done, done)
	}
	t.Cleanup(func() {
		for i, c := range j.cmds {
			if c.ProcessState == nil {
				c.Process.Kill()
				<-j.done[i]
			}
		}
	})
	return j
}

// wait waits up to d for worker r to exit and returns its output, whether
// it exited, and its exit error.
func (j *job) wait(r int, d time.Duration) (string, bool, error) {
	select {
	case err := <-j.done[r]:
		return j.out[r].String(), true, err
	case <-time.After(d):
		return j.out[r].String(), false, nil
	}
}

// waitAll requires every worker to exit successfully within d.
func (j *job) waitAll(d time.Duration) {
	j.t.Helper()
	deadline := time.Now().Add(d)
	for r := range j.cmds {
		out, ok, err := j.wait(r, time.Until(deadline))
		if !ok {
			j.t.Fatalf("rank %d still running after %v; output:\n%s", r, d, out)
		}
		if err != nil {
			j.t.Fatalf("rank %d failed: %v; output:\n%s", r, err, out)
		}
	}
}

// waitLine waits until some worker prints a line containing s.
func (j *job) waitLine(s string, d time.Duration) string {
	j.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case l := <-j.lines:
			if strings.Contains(l, s) {
				return l
			}
		case <-timeout:
			var all []string
			for r, o := range j.out {
				all = append(all, fmt.Sprintf("rank %d:\n%s", r, o.String()))
			}
			j.t.Fatalf("no worker printed %q within %v:\n%s", s, d, strings.Join(all, "\n"))
		}
	}
}
