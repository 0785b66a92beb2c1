package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A Slurm cluster of two nodes on this machine: munged, slurmctld and a
// slurmd on each of the two "hosts" of a hostPair, Debian's slurm-wlm
// (22.05). Nodes are named by the hosts' hostnames, which an /etc/hosts of
// their own resolves (scontrol show hostnames gives names, as on a real
// cluster). The daemons enter the hosts' network namespaces with nsenter
// rather than ip netns exec, which remounts /sys without the cgroup
// hierarchies slurmd insists on finding.
type slurmCluster struct {
	h     *hostPair
	dir   string // configuration, state, spools, logs
	conf  string
	hosts string // the hosts file both hosts see as /etc/hosts
	procs []*exec.Cmd
}

// requireSlurm skips the test where the cluster cannot be built (not root)
// and fails it where the tools are missing, as the multi-node test does.
func requireSlurm(t *testing.T) {
	t.Helper()
	requireLinux(t, "a Slurm cluster of network-namespace hosts")
	if os.Geteuid() != 0 {
		t.Skip("skipping: a Slurm cluster of network-namespace hosts needs root (CI runs make test as root)")
	}
	for _, tool := range []string{"slurmctld", "slurmd", "sbatch", "sinfo", "scontrol", "munged", "runuser", "nsenter", "unshare", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: install slurm-wlm, munge and openmpi-bin (scripts/deps.sh test does): %v", tool, err)
		}
	}
	if _, err := user.Lookup("munge"); err != nil {
		t.Fatalf("no munge user: install munge (scripts/deps.sh test does): %v", err)
	}
}

// command runs argv on host i: its network namespace, hostname and hosts file.
func (c *slurmCluster) command(i int, env []string, argv ...string) *exec.Cmd {
	script := `mount --bind "$0" /etc/hosts && hostname "$1" && shift 2 && exec "$@"`
	args := append([]string{"--net=/run/netns/" + c.h.ns[i], "unshare", "--uts", "--mount", "sh", "-c", script, c.hosts, c.h.hostname[i], "x"}, argv...)
	cmd := exec.Command("nsenter", args...)
	cmd.Env = append(append(os.Environ(), "SLURM_CONF="+c.conf), env...)
	return cmd
}

// start starts a daemon on host i (or on this machine, i < 0), logging to name.log.
func (c *slurmCluster) start(t *testing.T, i int, name string, argv ...string) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	if i >= 0 {
		cmd = c.command(i, nil, argv...)
	}
	log, err := os.Create(filepath.Join(c.dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	log.Close()
	c.procs = append(c.procs, cmd)
}

func (c *slurmCluster) log(name string) string {
	b, _ := os.ReadFile(filepath.Join(c.dir, name+".log"))
	return lastLines(string(b), 15)
}

// startSlurm starts munged, slurmctld (on host 0) and a slurmd per host,
// waits until both nodes are idle, and stops everything when the test ends.
func startSlurm(t *testing.T, h *hostPair) *slurmCluster {
	t.Helper()
	// munged runs as user munge and checks that it alone can read its key
	// and that everyone can reach its socket: a folder of its own under /tmp.
	dir, err := os.MkdirTemp("", "goaccel-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{h: h, dir: dir, conf: filepath.Join(dir, "slurm.conf"), hosts: filepath.Join(dir, "hosts")}
	t.Cleanup(func() { c.stop(t) })
	munge := filepath.Join(dir, "munge")
	key := make([]byte, 1024)
	if _, err := readRandom(key); err != nil {
		t.Fatal(err)
	}
	u, _ := user.Lookup("munge")
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, step := range []func() error{
		func() error { return os.Chmod(dir, 0o711) },
		func() error { return os.Mkdir(munge, 0o711) },
		func() error { return os.WriteFile(filepath.Join(munge, "munge.key"), key, 0o400) },
		func() error { return os.Chown(munge, uid, gid) },
		func() error { return os.Chown(filepath.Join(munge, "munge.key"), uid, gid) },
	} {
		if err := step(); err != nil {
			t.Fatalf("set up munge's folder: %v", err)
		}
	}
	// c.procs[0]: stop relies on it.
	c.start(t, -1, "munged", "runuser", "-u", "munge", "--", "munged", "--foreground", "--force",
		"--key-file="+filepath.Join(munge, "munge.key"), "--socket="+filepath.Join(munge, "socket"),
		"--pid-file="+filepath.Join(munge, "pid"), "--log-file="+filepath.Join(munge, "log"), "--seed-file="+filepath.Join(munge, "seed"))

	hosts := "127.0.0.1 localhost\n"
	var nodes strings.Builder
	for i := range h.ns {
		hosts += h.addr[i] + " " + h.hostname[i] + "\n"
		fmt.Fprintf(&nodes, "NodeName=%s NodeAddr=%s CPUs=2 State=UNKNOWN\n", h.hostname[i], h.addr[i])
		if err := os.Mkdir(filepath.Join(dir, "spool-"+h.hostname[i]), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := fmt.Sprintf(`ClusterName=goaccel-test
SlurmctldHost=%[1]s(%[2]s)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[3]s/munge/socket
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=%[3]s/state
SlurmdSpoolDir=%[3]s/spool-%%n
SlurmctldPidFile=%[3]s/slurmctld.pid
SlurmdPidFile=%[3]s/slurmd-%%n.pid
SlurmctldLogFile=%[3]s/slurmctld-file.log
SlurmdLogFile=%[3]s/slurmd-%%n-file.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
%[4]sPartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
`, h.hostname[0], h.addr[0], dir, nodes.String())
	for name, content := range map[string]string{c.conf: conf, c.hosts: hosts} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.start(t, 0, "slurmctld", "slurmctld", "-D", "-f", c.conf)
	for i := range h.ns {
		c.start(t, i, "slurmd-"+h.hostname[i], "slurmd", "-D", "-N", h.hostname[i], "-f", c.conf)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		out, _ := c.command(0, nil, "sinfo", "-h", "-o", "%T %D").CombinedOutput()
		if strings.TrimSpace(string(out)) == "idle 2" {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Slurm nodes are not idle after a minute (sinfo: %s)\nslurmctld:\n%s\nslurmd:\n%s\nmunged:\n%s", out,
				c.log("slurmctld"), c.log("slurmd-"+h.hostname[1]), c.log("munged"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends the daemons (munged by its pid file: runuser waits for it) and
// whatever is left in the hosts' namespaces, then removes the folder.
func (c *slurmCluster) stop(t *testing.T) {
	if b, err := os.ReadFile(filepath.Join(c.dir, "munge", "pid")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
	for i, p := range c.procs {
		if i > 0 { // not runuser: it ends with munged, which it reaps
			p.Process.Signal(syscall.SIGTERM)
		}
	}
	for _, p := range c.procs {
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.Process.Kill()
			<-done
		}
	}
	for i := range c.h.ns {
		out, _ := exec.Command("ip", "netns", "pids", c.h.ns[i]).Output()
		for _, f := range strings.Fields(string(out)) {
			if pid, err := strconv.Atoi(f); err == nil {
				t.Logf("killing process %d left on %s", pid, c.h.hostname[i])
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	os.RemoveAll(c.dir)
}

func readRandom(b []byte) (int, error) {
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.Read(b)
}

// trainedWeights parses the WEIGHTS and RAN lines trainAndReport printed.
func trainedWeights(t *testing.T, out string) ([]float32, string) {
	t.Helper()
	var w []float32
	ran := ""
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "WEIGHTS "); ok {
			if err := json.Unmarshal([]byte(v), &w); err != nil {
				t.Fatal(err)
			}
		}
		if v, ok := strings.CutPrefix(line, "RAN "); ok {
			ran = v
		}
	}
	if w == nil {
		t.Fatalf("no WEIGHTS line in:\n%s", out)
	}
	return w, ran
}

// A notebook function, exported with `%accelerate export` and built, trains
// on two nodes of a real Slurm: sbatch of the README's script (srun starts a
// goaccel launch per node, each with 2 workers; the master address from
// scontrol show hostnames), sbatch of its 2-node × 2-task form (srun starts
// every worker), and mpirun across the same two hosts (ip netns as its
// launch agent, where ssh would be). Each reaches the weights of 4 workers
// on one host (to float rounding: the hierarchical all-reduce adds in
// another order), sends its gradients across the link, and leaves no
// process behind. About a minute, most of it the export and the build.
func TestSlurmAndMpirunTrainAnExportedFunctionAcrossTwoHosts(t *testing.T) {
	requireSlurm(t)
	debian := jupyterStacks()[0] // the export needs one kernel client, not each stack
	debian.require(t, clientModules...)
	h := newHostPair(t)
	dataDir := e2eKernel(t)
	goaccel := filepath.Join(filepath.Dir(dataDir), "goaccel")
	exported := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// The checkpoints go to "project" in each job's working folder.
	export := exec.CommandContext(ctx, debian.python, "resume_e2e.py", "--export", exported, "project")
	export.Env = debian.env(launchEnv(t, dataDir))
	if out, err := export.CombinedOutput(); err != nil {
		t.Fatalf("export trainAndReport from a notebook: %v\n%s", err, out)
	}
	bin := filepath.Join(t.TempDir(), "train")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir, build.Env = exported, offlineEnv(os.Environ())
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build the exported program: %v\n%s", err, out)
	}
	ref := exec.CommandContext(ctx, goaccel, "launch", "--num_processes", "4", bin)
	ref.Dir = t.TempDir()
	out, err := ref.CombinedOutput()
	if err != nil {
		t.Fatalf("goaccel launch --num_processes 4 on one host: %v\n%s", err, out)
	}
	want, _ := trainedWeights(t, string(out))

	c := startSlurm(t, h)
	var daemons [2]string // what runs on each host between jobs: the Slurm daemons
	for i := range h.ns {
		daemons[i] = h.pids(t, i)
	}
	path := "PATH=" + filepath.Dir(goaccel) + ":" + os.Getenv("PATH")
	// 2 epochs of 16 steps per rank, each all-reducing 577 float32 gradients
	// between the hosts' leaders.
	const minCrossing = 32 * 577 * 4
	run := func(t *testing.T, cmd *exec.Cmd, outputs func(dir string) string) {
		work := t.TempDir()
		cmd.Dir = work
		tx0, rx0 := h.linkBytes(t)
		start := time.Now()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", strings.Join(cmd.Args, " "), err, b, outputs(work))
		}
		tx1, rx1 := h.linkBytes(t)
		got, ran := trainedWeights(t, outputs(work)+string(b))
		t.Logf("%v; %d bytes crossed the link", time.Since(start).Round(time.Millisecond), (tx1-tx0)+(rx1-rx0))
		if ran != "32" {
			t.Errorf("rank 0 ran %s steps; want 32 (2 epochs of 512 samples in batches of 8 on 4 ranks)", ran)
		}
		if len(got) != len(want) {
			t.Fatalf("%d weights; want %d", len(got), len(want))
		}
		for i := range want {
			if d := got[i] - want[i]; d > 1e-5 || d < -1e-5 {
				t.Fatalf("weight %d: %v across two hosts, %v on one", i, got[i], want[i])
			}
		}
		if crossed := (tx1 - tx0) + (rx1 - rx0); crossed < minCrossing {
			t.Errorf("only %d bytes crossed the link; the workers did not train across it", crossed)
		}
		// A job step's slurmstepd may take a moment to end after the job.
		for i := range h.ns {
			deadline := time.Now().Add(15 * time.Second)
			for left := h.pids(t, i); left != daemons[i]; left = h.pids(t, i) {
				if time.Now().After(deadline) {
					t.Errorf("processes left on %s after the job: %s", h.hostname[i], left)
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
	slurmOutput := func(dir string) string {
		files, _ := filepath.Glob(filepath.Join(dir, "*.out"))
		var b strings.Builder
		for _, f := range files {
			content, _ := os.ReadFile(f)
			b.Write(content)
		}
		return b.String()
	}
	for _, script := range []string{"submit_multinode.sh", "submit_multinode_tasks.sh"} {
		t.Run("sbatch "+script, func(t *testing.T) {
			abs, _ := filepath.Abs(filepath.Join("..", "scripts", "slurm", script))
			run(t, c.command(0, []string{path}, "sbatch", "--wait", abs, bin), slurmOutput)
		})
	}
	t.Run("mpirun", func(t *testing.T) {
		agent := filepath.Join(c.dir, "agent.sh")
		var cases strings.Builder
		for i := range h.ns {
			fmt.Fprintf(&cases, "%s) ns=%s ;;\n", h.hostname[i], h.ns[i])
		}
		// mpirun starts its daemon on another host with "AGENT HOST COMMAND…",
		// as it would with ssh: here, entering that host's namespaces.
		script := fmt.Sprintf(`#!/bin/sh
host=$1; shift
case $host in
%s*) echo "agent: unknown host $host" >&2; exit 1 ;;
esac
exec nsenter --net=/run/netns/$ns unshare --uts --mount sh -c 'mount --bind "$0" /etc/hosts && hostname "$1" && shift 2 && exec sh -c "$*"' %s $host x "$@"
`, cases.String(), c.hosts)
		if err := os.WriteFile(agent, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		subnet := h.addr[0][:strings.LastIndexByte(h.addr[0], '.')] + ".0/30"
		token := fmt.Sprintf("%x", time.Now().UnixNano())
		run(t, c.command(0, []string{path}, "timeout", "300", "mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "4",
			"-H", h.hostname[0]+":2,"+h.hostname[1]+":2", "--mca", "plm_rsh_agent", agent, "--mca", "oob_tcp_if_include", subnet,
			"-x", "MASTER_ADDR="+h.hostname[0], "-x", "MASTER_PORT=29500", "-x", "GOACCEL_STORE_TOKEN="+token, "-x", "PATH", bin),
			func(string) string { return "" })
	})
}

// The README shows scripts/slurm/submit_multinode.sh as it is: the script
// the Slurm test submits is the one users read.
func TestReadmeShowsTheSlurmScriptTheTestSubmits(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../scripts/slurm/submit_multinode.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```bash\n"+string(script)+"```\n") {
		t.Error("README.md does not show scripts/slurm/submit_multinode.sh verbatim in a bash block; copy the script into it")
	}
}
