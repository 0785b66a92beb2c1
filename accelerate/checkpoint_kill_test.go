package accelerate

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// The checkpoint kill tests run SaveState in a child process (this test
// binary, re-executed with envKillChild set) and kill it: at random moments,
// and deterministically at every step of a save that touches the file
// system. After each kill a fresh Accelerator must load a complete
// checkpoint, the last one saved or the one being saved, with the model, a
// registered object and goaccel_state.json from the same save.

const envKillChild = "GOACCEL_TEST_CHECKPOINT_CHILD"

// killLayout is one way of naming checkpoints.
type killLayout struct {
	name string
	cfg  func(project string) Config
	dir  func(project string) string // the folder passed to SaveState and LoadState
}

var killLayouts = []killLayout{
	{"explicit", func(string) Config { return Config{} }, func(p string) string { return filepath.Join(p, "ckpt") }},
	{"automatic-limit-1", func(p string) Config {
		return Config{ProjectDir: p, AutomaticCheckpointNaming: true, TotalLimit: 1}
	}, func(string) string { return "" }},
	{"automatic-limit-2", func(p string) Config {
		return Config{ProjectDir: p, AutomaticCheckpointNaming: true, TotalLimit: 2}
	}, func(string) string { return "" }},
}

func TestCheckpointSurvivesRandomKills(t *testing.T) {
	if os.Getenv(envKillChild) != "" {
		runKillChild()
		return
	}
	const kills = 20
	for _, layout := range killLayouts[:2] {
		t.Run(layout.name, func(t *testing.T) {
			project := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(len(layout.name)), 9))
			last := -1
			for k := 0; k < kills; k++ {
				delay := time.Duration(rng.IntN(25_000)) * time.Microsecond
				last = killChildAfter(t, layout, project, delay)
				checkLoads(t, layout, project, last, fmt.Sprintf("kill %d after %v", k, delay))
			}
			checkCleanAfterASave(t, layout, project)
		})
	}
}

// Every step of a save that touches the file system (each file written,
// the seal, each rename and its fsync, each deletion) is a kill point: the
// child is killed there, one point per run, until a run completes.
func TestCheckpointSurvivesAKillAtEveryStep(t *testing.T) {
	for _, layout := range killLayouts {
		t.Run(layout.name, func(t *testing.T) {
			project := t.TempDir()
			last := -1
			var renames int
			for k := 1; ; k++ {
				if k > 200 {
					t.Fatal("a save has more than 200 steps: the child never completes")
				}
				step, saved, complete := killChildAtStep(t, layout, project, k)
				if saved >= 0 {
					last = saved
				}
				if complete {
					t.Logf("%d kill points in one save, %d at renames", k-1, renames)
					break
				}
				if strings.HasPrefix(step, "rename") {
					renames++
				}
				checkLoads(t, layout, project, last, fmt.Sprintf("kill at step %d (%s)", k, step))
			}
			if renames < 2 {
				t.Fatalf("only %d kill points at renames", renames)
			}
			checkCleanAfterASave(t, layout, project)
		})
	}
}

// killChildAtStep runs a child that saves once, then saves again and kills
// itself at step k of that save. It returns the step's name, the last save
// reported complete (-1: none) and whether the second save completed.
func killChildAtStep(t *testing.T, layout killLayout, project string, k int) (step string, saved int, complete bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointSurvivesRandomKills$")
	cmd.Env = append(os.Environ(), envKillChild+"="+strings.Join([]string{layout.name, project, "step", strconv.Itoa(k)}, "|"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	saved = -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "saved "); ok {
			saved, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(line, "step "); ok {
			step = v
		}
		complete = complete || line == "complete"
	}
	var exit *exec.ExitError
	killed := errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL
	if !complete && !killed {
		t.Fatalf("child for step %d: %v\n%s", k, err, out)
	}
	return step, saved, complete
}

// killChildAfter starts a child saving in a loop, kills it delay after its
// first completed save, and returns the last save it reported complete.
func killChildAfter(t *testing.T, layout killLayout, project string, delay time.Duration) (last int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointSurvivesRandomKills$")
	cmd.Env = append(os.Environ(), envKillChild+"="+strings.Join([]string{layout.name, project, "loop"}, "|"))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	saved := make(chan int, 1024)
	go func() {
		defer close(saved)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "saved "); ok {
				n, _ := strconv.Atoi(v)
				saved <- n
			}
		}
	}()
	select {
	case n, ok := <-saved:
		if !ok {
			cmd.Wait()
			t.Fatal("the saving child exited before its first save")
		}
		last = n
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("the saving child did not save within a minute")
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	for n := range saved {
		last = n
	}
	cmd.Wait()
	return last
}

// checkLoads loads the checkpoint in a fresh Accelerator and checks it is
// one save, either the last one reported complete or the next.
func checkLoads(t *testing.T, layout killLayout, project string, last int, when string) {
	t.Helper()
	a, model, counter := killModel(layout.cfg(project))
	if err := a.LoadState(layout.dir(project)); err != nil {
		t.Fatalf("%s: no loadable checkpoint: %v\n%s", when, err, listing(project))
	}
	w := model.Parameters()[0].Float32s()
	got := int(w[0])
	for _, x := range w {
		if x != w[0] {
			t.Fatalf("%s: the model's weights mix two saves (%v and %v)", when, w[0], x)
		}
	}
	if int(counter.v) != got || a.saveIteration != got+1 {
		t.Fatalf("%s: the checkpoint mixes saves: weights of save %d, registered object of %d, goaccel_state of %d",
			when, got, counter.v, a.saveIteration-1)
	}
	if got != last && got != last+1 {
		t.Fatalf("%s: loaded save %d; the last complete save was %d", when, got, last)
	}
}

// checkCleanAfterASave saves once more and checks that nothing but complete
// checkpoints is left: no partial, old or half-deleted folder piles up.
func checkCleanAfterASave(t *testing.T, layout killLayout, project string) {
	t.Helper()
	a, _, _ := killModel(layout.cfg(project))
	if err := a.LoadState(layout.dir(project)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SaveState(layout.dir(project)); err != nil {
		t.Fatal(err)
	}
	root, want := project, "ckpt"
	if layout.dir(project) == "" {
		root = filepath.Join(project, "checkpoints")
		want = "checkpoint_" + strconv.Itoa(a.saveIteration-1)
		if limit := layout.cfg(project).TotalLimit; limit == 2 {
			want = "checkpoint_" + strconv.Itoa(a.saveIteration-2) + " " + want
		}
	}
	var names []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("after a save, %s holds %q; want only %q", root, got, want)
	}
}

// counterState is a registered object whose state is one number.
type counterState struct{ v int64 }

func (c *counterState) StateDict() ([]byte, error) {
	return binary.LittleEndian.AppendUint64(nil, uint64(c.v)), nil
}

func (c *counterState) LoadStateDict(b []byte) error {
	if len(b) != 8 {
		return fmt.Errorf("counter state is %d bytes", len(b))
	}
	c.v = int64(binary.LittleEndian.Uint64(b))
	return nil
}

// killModel is the Accelerator the kill tests save and load: a model big
// enough that writing it takes a while, and a registered counter.
func killModel(cfg Config) (*Accelerator, nn.Module, *counterState) {
	a := soloAcc(cfg)
	tensors.ManualSeed(1)
	var model nn.Module = nn.NewLinear(256, 256)
	a.Prepare(&model)
	counter := &counterState{}
	a.RegisterForCheckpointing(counter)
	return a, model, counter
}

// runKillChild is the child: it resumes from the checkpoint, if any, and
// saves in a loop, each save writing its number into every weight.
func runKillChild() {
	parts := strings.Split(os.Getenv(envKillChild), "|")
	var layout killLayout
	for _, l := range killLayouts {
		if l.name == parts[0] {
			layout = l
		}
	}
	project, mode := parts[1], parts[2]
	a, model, counter := killModel(layout.cfg(project))
	if err := a.LoadState(layout.dir(project)); err != nil && a.saveIteration != 0 {
		fmt.Fprintln(os.Stderr, "child: load:", err)
		os.Exit(2)
	}
	save := func() {
		i := a.saveIteration
		for _, p := range model.Parameters() {
			p.Fill(float64(i))
		}
		counter.v = int64(i)
		if _, err := a.SaveState(layout.dir(project)); err != nil {
			fmt.Fprintln(os.Stderr, "child: save:", err)
			os.Exit(2)
		}
		fmt.Printf("saved %d\n", i)
	}
	switch mode {
	case "loop":
		for {
			save()
		}
	case "step":
		killAt, _ := strconv.Atoi(parts[3])
		save()
		n := 0
		a.checkpointHook = func(step string) {
			if n++; n == killAt {
				fmt.Printf("step %s\n", step)
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
		save()
		fmt.Println("complete")
		os.Exit(0)
	}
	fmt.Fprintln(os.Stderr, "child: unknown mode", mode)
	os.Exit(2)
}

func listing(root string) string {
	var b strings.Builder
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(root, path)
			fmt.Fprintf(&b, "  %s (%d bytes)\n", rel, info.Size())
		}
		return nil
	})
	return b.String()
}
