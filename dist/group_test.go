package dist

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
	"github.com/goaccel/goaccel/dist/internal/store"
)

func TestCollectivesAcrossProcesses(t *testing.T) {
	for _, c := range []struct {
		n         int
		transport string
	}{{2, "auto"}, {3, "auto"}, {2, "tcp"}, {3, "tcp"}} {
		t.Run(fmt.Sprintf("%dprocs_%s", c.n, c.transport), func(t *testing.T) {
			j := start(t, "collectives", c.n, EnvTransport+"="+c.transport)
			j.waitAll(60 * time.Second)
			want := map[string]string{"auto": "transport=shm", "tcp": "transport=tcp"}[c.transport]
			if out := j.out[0].String(); !strings.Contains(out, want) {
				t.Fatalf("rank 0 did not use %s:\n%s", want, out)
			}
		})
	}
}

func TestCollectivesWithLauncherHostedStore(t *testing.T) {
	token := NewToken()
	srv, err := ServeStore("127.0.0.1:0", token)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	j := start(t, "collectives", 2, EnvStoreAddr+"="+srv.Addr(), EnvStoreToken+"="+token)
	j.waitAll(60 * time.Second)
}

func TestStrayConnectionWithWrongTokenIsRefusedAndGroupCarriesOn(t *testing.T) {
	j := start(t, "loop", 2)
	line := j.waitLine("looping", 30*time.Second)
	_ = line
	port := strings.TrimPrefix(envOf(j.cmds[0].Env, "MASTER_PORT"), "")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := store.Dial(ctx, "127.0.0.1:"+port, []byte("not-the-token"), 0)
	if !errors.Is(err, auth.ErrBadToken) {
		t.Fatalf("a wrong token was not refused: %v", err)
	}
	// The group is still all-reducing: a later line count keeps growing
	// only if it is alive, so check both processes are still running.
	time.Sleep(200 * time.Millisecond)
	for r := range j.cmds {
		if out, exited, err := j.wait(r, 0); exited {
			t.Fatalf("rank %d exited after the stray connection: %v\n%s", r, err, out)
		}
	}
	// The group's region must be unlinked once every rank mapped it. Only this job's mappings
	// are looked at: other packages' tests create and unlink /dev/shm/goaccel-* files of their
	// own while this one runs, so a count of the folder's files can be off either way.
	for r, c := range j.cmds {
		if linked := linkedShm(t, c.Process.Pid); len(linked) > 0 {
			t.Fatalf("rank %d maps shared-memory files that are still linked: %v", r, linked)
		}
	}
}

// linkedShm lists the /dev/shm/goaccel-* files that process pid maps and that
// still have a name (an unlinked one shows as "… (deleted)").
func linkedShm(t *testing.T, pid int) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Logf("not checking which shared-memory files rank process %d maps: /proc is Linux's", pid)
		return nil
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		t.Fatalf("read the maps of rank process %d: %v", pid, err)
	}
	var linked []string
	for _, line := range strings.Split(string(maps), "\n") {
		if i := strings.Index(line, "/dev/shm/goaccel-"); i >= 0 && !strings.HasSuffix(line, " (deleted)") && !slices.Contains(linked, line[i:]) {
			linked = append(linked, line[i:])
		}
	}
	return linked
}

func envOf(env []string, k string) string {
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, k+"="); ok {
			return v
		}
	}
	return ""
}

func TestKilledRankFailsTheOthersNamingIt(t *testing.T) {
	for _, c := range []struct {
		n, victim int
		transport string
		hosts     string // simulated host of each rank; "" for this host
	}{{3, 1, "auto", ""}, {3, 0, "auto", ""}, {2, 1, "tcp", ""}, {3, 2, "tcp", ""}, {4, 2, "auto", "@a,a,b,b"}} {
		t.Run(fmt.Sprintf("%dprocs_kill%d_%s%s", c.n, c.victim, c.transport, strings.ReplaceAll(c.hosts, ",", "")), func(t *testing.T) {
			env := []string{EnvTransport + "=" + c.transport}
			if c.hosts != "" {
				env = append(env, EnvHostID+"="+c.hosts)
			}
			j := start(t, "loop", c.n, env...)
			for range c.n {
				j.waitLine("looping", 30*time.Second)
			}
			killed := time.Now()
			if err := j.cmds[c.victim].Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			for r := range j.cmds {
				if r == c.victim {
					continue
				}
				out, exited, err := j.wait(r, 10*time.Second-time.Since(killed))
				if !exited {
					t.Fatalf("rank %d still running 10 s after rank %d was killed:\n%s", r, c.victim, out)
				}
				want := fmt.Sprintf("PEERLOST rank=%d", c.victim)
				if !strings.Contains(out, want) {
					t.Fatalf("rank %d: want %q; exit %v, output:\n%s", r, want, err, out)
				}
				t.Logf("rank %d failed %v after the kill: %s", r, time.Since(killed).Round(time.Millisecond), lastLine(out))
			}
			j.wait(c.victim, 5*time.Second)
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestCollectiveTimesOutNamingTheMissingRank(t *testing.T) {
	for _, transport := range []string{"shm", "tcp"} {
		t.Run(transport, func(t *testing.T) {
			j := start(t, "stall", 2, EnvTimeout+"=2s", EnvTransport+"="+transport)
			began := time.Now()
			out, exited, err := j.wait(0, 20*time.Second)
			if !exited || err != nil {
				t.Fatalf("rank 0: exited=%v err=%v\n%s", exited, err, out)
			}
			if !strings.Contains(out, "TIMEOUT=true") || !strings.Contains(out, "rank 1") || !strings.Contains(out, "timed out after 2s") {
				t.Fatalf("want a timeout naming rank 1:\n%s", out)
			}
			t.Logf("rank 0 gave up after %v: %s", time.Since(began).Round(time.Millisecond), lastLine(out))
			j.wait(1, 10*time.Second)
		})
	}
}

func TestOneHostJobWithoutTokenSharesOneThroughAPrivateFile(t *testing.T) {
	j := start(t, "collectives", 2, EnvStoreToken+"=", "XDG_RUNTIME_DIR="+t.TempDir())
	j.waitAll(60 * time.Second)
}

// firstNonLoopbackIP returns an address of this host other hosts could
// reach, or "" when it has none.
func firstNonLoopbackIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP.String()
		}
	}
	return ""
}

// A job described as two hosts (LOCAL_WORLD_SIZE=1) rendezvous on a
// routable address and all-reduces over TCP; here both "hosts" are this one.
func TestMultiHostConfigurationUsesTheRoutableAddress(t *testing.T) {
	ip := firstNonLoopbackIP()
	if ip == "" {
		t.Skip("no non-loopback IPv4 address on this machine")
	}
	j := start(t, "collectives", 2, "MASTER_ADDR="+ip, "LOCAL_WORLD_SIZE=1", "LOCAL_RANK=0", EnvTransport+"=tcp")
	j.waitAll(60 * time.Second)
}

// A rank that dies during rendezvous is reported by the store, which every
// waiting rank is connected to, so Init fails naming it instead of waiting
// out the timeout.
func TestRankDyingDuringRendezvousFailsInitNamingIt(t *testing.T) {
	token := NewToken()
	srv, err := ServeStore("127.0.0.1:0", token)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{EnvStoreAddr + "=" + srv.Addr(), EnvStoreToken + "=" + token}
	j := startRanks(t, "collectives", 3, []int{0, 2}, env...) // rank 1 is the process that dies
	dying := start(t, "register-and-die", 1, append(env, "RANK=1", "WORLD_SIZE=3")...)
	began := time.Now()
	dying.wait(0, 10*time.Second)
	for i, r := range []int{0, 2} {
		out, exited, _ := j.wait(i, 10*time.Second)
		if !exited || !strings.Contains(out, "PEERLOST-INIT rank=1") {
			t.Fatalf("rank %d: exited=%v, want an init error naming rank 1:\n%s", r, exited, out)
		}
		t.Logf("rank %d failed %v after rank 1 died: %s", r, time.Since(began).Round(time.Millisecond), lastLine(out))
	}
}

// Ranks on several hosts, some sharing one, all-reduce hierarchically:
// shared memory within each host, a ring between hosts. The hosts are
// simulated with GOACCEL_DIST_HOST_ID.
func TestHierarchicalAllReduceAcrossSimulatedHosts(t *testing.T) {
	for _, hosts := range []string{"@a,a,b,b", "@a,b,a", "@a,b,b"} {
		t.Run(strings.ReplaceAll(hosts[1:], ",", ""), func(t *testing.T) {
			n := strings.Count(hosts, ",") + 1
			j := start(t, "collectives", n, EnvHostID+"="+hosts)
			j.waitAll(60 * time.Second)
			if out := j.out[0].String(); !strings.Contains(out, "transport=shm+tcp") {
				t.Fatalf("rank 0 did not go hierarchical:\n%s", out)
			}
		})
	}
}
