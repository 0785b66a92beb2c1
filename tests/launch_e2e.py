#!/usr/bin/env python3
"""End-to-end test of `%accelerate launch` and notebook_launcher.Launch from
cells, through jupyter_client (Debian's and the PyPI stack's).

Run by tests/launch_e2e_test.go with JUPYTER_DATA_DIR pointing at the freshly
built kernel, LAUNCH_E2E_DIR at a scratch folder and GOACCEL_BIN at the goaccel
binary. Prints PASS/FAIL per check; exits 1 if any check failed.
"""
import glob
import os
import signal
import subprocess
import sys
import time

from kernel_e2e import result_of, run_checks, text_of, types_of

CHECKS = []
SCRATCH = os.environ["LAUNCH_E2E_DIR"]


def check(fn):
    CHECKS.append(fn)
    return fn


def ok(k, code, timeout=120):
    c, msgs = k.run(code, timeout=timeout)
    assert c["status"] == "ok", (code, c, [m["content"] for m in msgs if m["msg_type"] in ("error", "stream")])
    return c, msgs


def errors(msgs):
    return [m["content"] for m in msgs if m["msg_type"] == "error"]


def alive(pid):
    return os.path.exists(f"/proc/{pid}")


def pids_in(folder, n, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = glob.glob(os.path.join(folder, "pid-*"))
        if len(files) == n:
            try:
                return [int(open(f).read()) for f in files]
            except ValueError:
                pass
        time.sleep(0.02)
    raise AssertionError(f"{n} workers did not write their pids within {timeout}s")


@check
def setup(k):
    ok(k, '''import (
	"fmt"
	"os"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/tensors"
)''')
    ok(k, '''type Config struct {
	Scale float64
	Steps int
	label string
}

type Result struct {
	Rank    string
	Weights *tensors.Tensor
	History []float64
	Label   string
}

func train(cfg Config, w *tensors.Tensor) Result {
	fmt.Println("rank", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE"), "got", cfg.label)
	var hist []float64
	for i := 0; i < cfg.Steps; i++ {
		w = w.MulScalar(cfg.Scale)
		hist = append(hist, w.Sum().Item())
	}
	return Result{Rank: os.Getenv("RANK"), Weights: w, History: hist, Label: cfg.label}
}

func hello() { fmt.Println("hello from", os.Getenv("RANK")) }

func pidfile(dir string) {
	os.WriteFile(fmt.Sprintf("%s/pid-%s", dir, os.Getenv("RANK")), []byte(fmt.Sprint(os.Getpid())), 0o644)
}''')
    ok(k, 'cfg := Config{Scale: 2, Steps: 3, label: "from the notebook"}\nw0 := tensors.New([]float32{1, 2, 3}, 3)')


@check
def launch_passes_arguments_and_returns_a_tensor(k):
    c, msgs = ok(k, "%accelerate launch --num_processes 2 -o res train(cfg, w0)")
    out = text_of(msgs)
    assert "rank 0 of 2 got from the notebook\n" in out and "[rank 1] rank 1 of 2 got from the notebook\n" in out, out
    assert "train ran on 2 workers (cpu, cpu; interpreted) in " in out, out
    assert result_of(msgs) is not None and "from the notebook" in result_of(msgs), types_of(msgs)
    c, msgs = ok(k, 'fmt.Sprintf("%s %v %v %s", res.Rank, res.Weights.Float32s(), res.History, res.Label)')
    assert result_of(msgs) == "0 [8 16 24] [12 24 48] from the notebook", result_of(msgs)


@check
def launch_api_from_a_cell(k):
    c, msgs = ok(k, '''r, err := notebook_launcher.Launch(train, notebook_launcher.Options{NumProcesses: 2}, Config{Scale: 3, Steps: 1}, w0)
if err != nil {
	panic(err)
}
r.(Result).Weights.Float32s()''')
    assert result_of(msgs) == "[3 6 9]", result_of(msgs)


@check
def a_non_transferable_argument_is_refused_before_any_worker_starts(k):
    t0 = time.monotonic()
    c, msgs = k.run("%accelerate launch --num_processes 2 train(cfg, make(chan int))")
    assert c["status"] == "error" and c["ename"] == "ArgumentError", c
    assert "argument 2 of train (make(chan int))" in c["evalue"] and "channel" in c["evalue"], c["evalue"]
    assert len(errors(msgs)) == 1 and "rank" not in text_of(msgs), msgs
    assert time.monotonic() - t0 < 5, "refusal took too long: did workers start?"


@check
def a_worker_panic_names_rank_and_cell_line(k):
    folder = os.path.join(SCRATCH, "panic")
    os.makedirs(folder, exist_ok=True)
    c, _ = ok(k, f'''func crash(dir string) {{
	pidfile(dir)
	if waitForRankZero(dir); os.Getenv("RANK") == "1" {{
		panic("loss is NaN")
	}}
	time.Sleep(time.Minute)
}}

// waitForRankZero waits until rank 0 wrote its pid, so that the test can
// check that rank 1's failure took both workers down.
func waitForRankZero(dir string) {{
	for {{
		if _, err := os.Stat(dir + "/pid-0"); err == nil {{
			return
		}}
		time.Sleep(5 * time.Millisecond)
	}}
}}''')
    cell = c["execution_count"]
    c, msgs = k.run(f"%accelerate launch --num_processes 2 crash({folder!r})".replace("'", '"'), timeout=120)
    assert c["status"] == "error" and c["ename"] == "WorkerError", c
    assert "worker rank 1 failed: panic: loss is NaN" in c["evalue"], c["evalue"]
    assert f"cell [{cell}], line 4" in c["evalue"], (cell, c["evalue"])
    assert len(errors(msgs)) == 1, types_of(msgs)
    assert any('panic("loss is NaN")' in line for line in c["traceback"]), c["traceback"]
    for pid in pids_in(folder, 2):
        assert not alive(pid), f"worker {pid} outlived the failed launch"


@check
def interrupt_stops_every_worker_and_keeps_the_session(k):
    folder = os.path.join(SCRATCH, "interrupt")
    os.makedirs(folder, exist_ok=True)
    ok(k, '''func trainForever(dir string) {
	acc := accelerate.New(accelerate.Config{})
	pidfile(dir)
	w := tensors.Randn(64, 64)
	for step := 0; ; step++ {
		w = w.MatMul(w.Transpose(0, 1)).MulScalar(1e-3)
		acc.WaitForEveryone()
	}
}''')
    ok(k, "keep := 41")
    msg_id = k.kc.execute(f'%accelerate launch --num_processes 2 trainForever("{folder}")')
    pids = pids_in(folder, 2)
    time.sleep(0.3)
    t0 = time.monotonic()
    intr = k.kc.session.msg("interrupt_request", {})
    k.kc.control_channel.send(intr)
    rep = k.reply(msg_id, timeout=10)
    dt = time.monotonic() - t0
    c = rep["content"]
    assert c["status"] == "error" and "nterrupt" in c["ename"] + c["evalue"], c
    # The launch reaps every worker before its cell replies, so none may be left now; and the
    # executor was not killed, which the kernel does when a cell has not stopped within its
    # 2 s grace: together they pin "stopped promptly" without timing a loaded machine.
    assert not any(alive(p) for p in pids), f"workers {[p for p in pids if alive(p)]} still exist when the interrupted cell replied ({dt:.2f}s)"
    assert "restarted" not in c["evalue"], c
    k.iopub(msg_id)
    k.drain()
    c, msgs = ok(k, "keep + 1")
    assert result_of(msgs) == "42", result_of(msgs)
    c, msgs = ok(k, "%accelerate launch --num_processes 2 hello")
    assert "hello from 0" in text_of(msgs) and "[rank 1] hello from 1" in text_of(msgs), text_of(msgs)


@check
def sigint_to_the_kernel_stops_the_workers(k):
    folder = os.path.join(SCRATCH, "sigint")
    os.makedirs(folder, exist_ok=True)
    msg_id = k.kc.execute(f'%accelerate launch --num_processes 2 trainForever("{folder}")')
    pids = pids_in(folder, 2)
    t0 = time.monotonic()
    k.km.signal_kernel(signal.SIGINT)
    rep = k.reply(msg_id, timeout=10)
    assert rep["content"]["status"] == "error", rep["content"]
    assert "restarted" not in rep["content"]["evalue"], rep["content"]
    assert not any(alive(p) for p in pids), f"workers outlived SIGINT to the kernel ({time.monotonic() - t0:.2f}s)"
    k.iopub(msg_id)
    k.drain()


@check
def displays_from_every_rank_reach_the_launching_cell(k):
    ok(k, '''func show() {
	rank := os.Getenv("RANK")
	display.HTML("<b>rank " + rank + "</b>")
	h := display.New("rank " + rank + " step 0")
	h.Update("rank " + rank + " step 1")
}''')
    c, msgs = ok(k, "%accelerate launch --num_processes 2 show")
    html = [m["content"]["data"].get("text/html") for m in msgs if m["msg_type"] == "display_data"]
    assert "<b>rank 0</b>" in html and "<b>rank 1</b>" in html, types_of(msgs)
    updates = [m["content"]["data"]["text/plain"] for m in msgs if m["msg_type"] == "update_display_data"
               and not m["content"].get("transient", {}).get("display_id", "").startswith("goaccel-launch-status-")]
    assert sorted(updates) == ["rank 0 step 1", "rank 1 step 1"], updates


@check
def the_notebook_tracker_draws_rank_zeros_live_plot(k):
    ok(k, '''func tracked() {
	acc := accelerate.New(accelerate.Config{LogWith: []string{"notebook"}})
	acc.InitTrackers("launch", nil)
	for step := 0; step < 5; step++ {
		acc.Log(map[string]float64{"loss": 1 / float64(step+1)}, step)
	}
	acc.EndTraining()
}''')
    c, msgs = ok(k, "%accelerate launch --num_processes 2 tracked")
    pngs = [m for m in msgs if m["msg_type"] in ("display_data", "update_display_data") and ("image/png" in m["content"]["data"] or "image/svg+xml" in m["content"]["data"])]
    assert pngs, f"no live plot image from rank 0: {types_of(msgs)}"


@check
def a_second_launch_while_one_runs_is_refused(k):
    folder = os.path.join(SCRATCH, "second")
    os.makedirs(folder, exist_ok=True)
    ok(k, f'''func waitForStop(dir string) {{
	pidfile(dir)
	for {{
		if _, err := os.Stat(dir + "/stop"); err == nil {{
			return
		}}
		time.Sleep(10 * time.Millisecond)
	}}
}}''')
    # The cell is still running when the goroutine's launch starts (the sleep): the launch must
    # outlive the cell's normal end, which cancels the cell's context.
    ok(k, f'go notebook_launcher.Launch(waitForStop, notebook_launcher.Options{{NumProcesses: 1}}, "{folder}")\ntime.Sleep(500 * time.Millisecond)')
    pids_in(folder, 1)
    c, msgs = k.run("%accelerate launch hello")
    assert c["status"] == "error" and "another launch is running (waitForStop" in c["evalue"], c
    open(os.path.join(folder, "stop"), "w").close()
    deadline = time.monotonic() + 30
    while True:
        c, msgs = k.run("%accelerate launch hello")
        if c["status"] == "ok" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert c["status"] == "ok", c


@check
def env_and_config_magics(k):
    c, msgs = ok(k, "%accelerate env")
    assert "- Go version: go" in text_of(msgs) and "logical cores" in text_of(msgs), text_of(msgs)
    c, msgs = ok(k, "%accelerate config num_processes=3 mixed_precision=bf16")
    assert "num_processes: 3" in text_of(msgs), text_of(msgs)
    c, msgs = ok(k, "%accelerate config")
    assert "mixed_precision: bf16" in text_of(msgs), text_of(msgs)
    ok(k, 'func precision() string { return fmt.Sprint(accelerate.New(accelerate.Config{}).MixedPrecision(), " ", os.Getenv("WORLD_SIZE")) }')
    c, msgs = ok(k, "%accelerate launch precision")
    assert result_of(msgs) == "bf16 3", (result_of(msgs), "the saved defaults must apply")
    c, msgs = k.run("%accelerate config num_procs=2")
    assert c["status"] == "error" and "unknown key" in c["evalue"], c
    ok(k, "%accelerate config num_processes=1 mixed_precision=no")


@check
def export_writes_a_program_goaccel_launch_runs(k):
    out = os.path.join(SCRATCH, "exported")
    c, msgs = ok(k, f'%accelerate export --num_processes 2 {out} train(cfg, w0)')
    assert "main.go" in text_of(msgs), text_of(msgs)
    # As a user's shell without network has it: plain go build, no module downloads.
    env = dict(os.environ, GOFLAGS="", GOPROXY="off")
    p = subprocess.run([os.environ["GOACCEL_BIN"], "launch", "--num_processes", "2", out],
                       capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "rank 0 of 2 got from the notebook" in p.stdout and "[rank 1] rank 1 of 2 got from the notebook" in p.stdout, p.stdout


@check
def compiled_workers_build_once_and_map_errors_to_cells(k):
    c, msgs = ok(k, "%accelerate launch --num_processes 2 --compile hello", timeout=600)
    assert "compiled, built in" in text_of(msgs), text_of(msgs)
    c, msgs = ok(k, "%accelerate launch --num_processes 2 --compile hello")
    assert "compiled, cached build" in text_of(msgs), text_of(msgs)
    c, _ = ok(k, 'type Pair struct{ A int }\nfunc first(p Pair) int { return p.A }')
    cell = c["execution_count"]
    ok(k, "type Pair struct{ B int }")
    c, msgs = k.run("%accelerate launch --compile first(Pair{})", timeout=600)
    assert c["status"] == "error" and c["ename"] == "CompileError" and f"cell [{cell}], line 2" in c["evalue"], c


if __name__ == "__main__":
    sys.exit(run_checks(CHECKS, always=("setup",)))
