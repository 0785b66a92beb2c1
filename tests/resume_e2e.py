#!/usr/bin/python3
"""End-to-end test of restarts, stop-and-resume, the status table and stall
reports of `%accelerate launch`, through Debian's jupyter_client.

Run by tests/resume_test.go with JUPYTER_DATA_DIR pointing at the freshly
built kernel and RESUME_E2E_DIR at a scratch folder. The notebook's cell is
tests/testdata/resume/train.go less its package line, the program the
goaccel launch test runs. Prints PASS/FAIL per check; exits 1 if any failed.
"""
import os
import re
import signal
import sys
import time

from kernel_e2e import K, result_of, run_checks, text_of

CHECKS = []
SCRATCH = os.environ.get("RESUME_E2E_DIR", "")
TRAIN = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "resume", "train.go")).read()
CELL = TRAIN.split("\n", 1)[1]  # less its package line
STATE = {}


def check(fn):
    CHECKS.append(fn)
    return fn


def ok(k, code, timeout=120):
    c, msgs = k.run(code, timeout=timeout)
    assert c["status"] == "ok", (code, c, [m["content"] for m in msgs if m["msg_type"] in ("error", "stream")])
    return c, msgs


def alive(pid):
    return os.path.exists(f"/proc/{pid}")


def wait_file(path, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(path) as f:
                s = f.read()
            if s:
                return s
        except OSError:
            pass
        time.sleep(0.02)
    raise AssertionError(f"{path} did not appear within {timeout}s")


def value(k, expr):
    c, msgs = ok(k, expr)
    return result_of(msgs)


def tables(msgs):
    """The status table's displays: (msg_type, text/plain) in order."""
    out = []
    for m in msgs:
        if m["msg_type"] in ("display_data", "update_display_data"):
            if m["content"].get("transient", {}).get("display_id", "").startswith("goaccel-launch-status-"):
                out.append((m["msg_type"], m["content"]["data"]["text/plain"]))
    return out


def run_cfg(d, **kw):
    fields = [f'Dir: "{d}"', "Epochs: 2"] + [f"{k}: {v}" for k, v in kw.items()]
    return "RunCfg{" + ", ".join(fields) + "}"


@check
def setup(k):
    c, _ = ok(k, CELL)
    STATE["cell"] = c["execution_count"]
    lines = CELL.split("\n")
    STATE["hang_line"] = next(i + 1 for i, line in enumerate(lines) if "the branch only rank 1 takes" in line)


@check
def the_launching_cell_shows_a_live_status_table(k):
    c, msgs = ok(k, f"%accelerate launch --num_processes 2 -o ref trainCkpt({run_cfg(os.path.join(SCRATCH, 'ref'))})", timeout=300)
    STATE["ref"] = value(k, "fmt.Sprint(ref.Weights)")
    assert value(k, "ref.Ran") == "64", "the uninterrupted run ran every step"
    shown = tables(msgs)
    assert shown and shown[0][0] == "display_data" and all(t == "update_display_data" for t, _ in shown[1:]), \
        [t for t, _ in shown]
    first, last = shown[0][1], shown[-1][1]
    took = sum(float(x) for x in re.findall(r"in ([0-9.]+) s\n", text_of(msgs))[-1:]) or 1
    assert len(shown) <= 4 * took + 2, (len(shown), took, "at most 4 updates a second")
    assert first.startswith("rank ") and "samples/s" in first and "memory" in first and "doing" in first, first
    rows = [line.split() for line in last.splitlines()[1:]]
    assert [r[0] for r in rows] == ["0", "1"], last
    assert all("exited (exit status 0)" in line for line in last.splitlines()[1:]), last
    # 64 optimizer steps on each rank (2 epochs of 32).
    assert all(r[1] == "64" for r in rows), last


@check
def a_worker_killed_mid_step_restarts_the_group_from_its_checkpoint(k):
    marks = os.path.join(SCRATCH, "restart-marks")
    os.makedirs(marks, exist_ok=True)
    cfg = run_cfg(os.path.join(SCRATCH, "restart"), Marks=f'"{marks}"', MarkAt=20, Pause="true")
    msg_id = k.kc.execute(f"%accelerate launch --num_processes 2 --max_restarts 1 -o w1 trainCkpt({cfg})")
    pid = int(wait_file(os.path.join(marks, "reached")))
    killed = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    rep = k.reply(msg_id, timeout=300)
    msgs = k.iopub(msg_id)
    print(f"  killed rank 1 at step 20; the launch finished {time.monotonic() - killed:.2f}s later")
    assert rep["content"]["status"] == "ok", rep["content"]
    err = text_of(msgs, "stderr")
    for s in ("worker rank 1 failed (signal: killed)", "restart 1 of 1: every worker was stopped",
              "checkpoint_1 (saved after 16 optimizer steps)"):
        assert s in err, (s, err)
    assert value(k, "fmt.Sprint(w1.Weights)") == STATE["ref"], "the restarted run's weights differ from the uninterrupted run's"
    assert value(k, "w1.Ran") == "48", "the restarted group must run only the 48 steps after the checkpoint of step 16"
    assert any("restart 1" in text for _, text in tables(msgs)), "the status table does not show the restart"


@check
def a_first_interrupt_stops_at_a_step_boundary_and_resume_continues(k):
    marks = os.path.join(SCRATCH, "stop-marks")
    os.makedirs(marks, exist_ok=True)
    project = os.path.join(SCRATCH, "stop")
    cfg = run_cfg(project, Marks=f'"{marks}"', MarkAt=10, StepDelayMS=50)
    msg_id = k.kc.execute(f"%accelerate launch --num_processes 2 -o w2 trainCkpt({cfg})")
    pid = int(wait_file(os.path.join(marks, "reached")))
    asked = time.monotonic()
    k.kc.control_channel.send(k.kc.session.msg("interrupt_request", {}))
    rep = k.reply(msg_id, timeout=60)
    msgs = k.iopub(msg_id)
    c = rep["content"]
    print(f"  stopped {time.monotonic() - asked:.2f}s after the interrupt")
    assert c["status"] == "error" and c["ename"] == "Stopped", c
    m = re.search(r"after (\d+) optimizer steps: every worker finished its step and saved its state in (\S+)", c["evalue"])
    assert m and m.group(2).startswith(os.path.join(project, "checkpoints", "checkpoint_")), c["evalue"]
    assert 10 <= int(m.group(1)) < 32, ("want a stop mid-epoch after step 10", c["evalue"])
    assert any("--resume" in line for line in c["traceback"]), c["traceback"]
    assert "restarted" not in c["evalue"] and not alive(pid), "the workers must leave on their own"
    assert "stopping: every worker finishes its current step" in text_of(msgs, "stderr"), text_of(msgs, "stderr")
    c, msgs = ok(k, f"%accelerate launch --num_processes 2 --resume -o w2 trainCkpt({run_cfg(project)})", timeout=300)
    assert "accelerate: resumed from " + m.group(2) in text_of(msgs), text_of(msgs)
    assert value(k, "fmt.Sprint(w2.Weights)") == STATE["ref"], "stopped and resumed, the weights differ from the uninterrupted run's"
    assert value(k, "w2.Ran") == str(64 - int(m.group(1))), "the resumed run must run only the steps after the stop"


@check
def a_second_interrupt_kills_workers_that_cannot_reach_a_step_boundary(k):
    marks = os.path.join(SCRATCH, "kill-marks")
    os.makedirs(marks, exist_ok=True)
    cfg = run_cfg(os.path.join(SCRATCH, "kill"), Marks=f'"{marks}"', MarkAt=5, Pause="true")
    msg_id = k.kc.execute(f"%accelerate launch --num_processes 2 trainCkpt({cfg})")
    pid = int(wait_file(os.path.join(marks, "reached")))
    interrupt = lambda: k.kc.control_channel.send(k.kc.session.msg("interrupt_request", {}))
    interrupt()  # rank 1 waits mid-step for ever: the stop it asks for cannot come
    time.sleep(3)  # past the kernel's 2 s grace: a graceful stop keeps the executor alive
    assert alive(pid), "the first interrupt must not kill the workers"
    interrupt()
    rep = k.reply(msg_id, timeout=15)
    c = rep["content"]
    assert c["status"] == "error" and "nterrupt" in c["ename"] + c["evalue"] and "restarted" not in c["evalue"], c
    assert not alive(pid), "the second interrupt must kill the workers"
    err = text_of(k.iopub(msg_id), "stderr")
    assert "stopping: every worker finishes its current step" in err and "interrupted again: stopping the workers at once" in err, err
    c, msgs = ok(k, "%accelerate launch --num_processes 2 skipOne(0)")  # the session goes on


@check
def a_collective_one_rank_skips_is_reported_with_its_cell_line(k):
    threshold = 2
    msg_id = k.kc.execute(f"%accelerate launch --num_processes 2 --stall_threshold {threshold}s skipOne(5)")
    err, shown, deadline = "", [], time.monotonic() + 120
    while "A collective waits until every rank joins it" not in err:
        assert time.monotonic() < deadline, ("no stall report within 120 s", err)
        m = k.kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "stream" and m["content"]["name"] == "stderr":
            err += m["content"]["text"]
        shown += tables([m])
    want = f"rank 1 is computing, in no collective (it has been through 2), at cell [{STATE['cell']}], line {STATE['hang_line']}: time.Sleep(time.Hour)"
    assert "all-reduce(sum) #3 has waited" in err and "on rank 0; rank 1 has not joined it." in err, err
    assert want in err, (want, err)
    waited = float(re.search(r"#3 has waited ([0-9.]+) s", err).group(1))
    assert threshold <= waited <= threshold + 5, ("reported late (4 looks a second, and slack for a loaded machine)", err)
    assert any("all-reduce(sum) #3 for" in text for _, text in shown), shown
    k.kc.control_channel.send(k.kc.session.msg("interrupt_request", {}))
    rep = k.reply(msg_id, timeout=30)
    assert rep["content"]["status"] == "error", rep["content"]
    while True:  # the rest of the cell's messages, to its idle (its busy was read above)
        m = k.kc.get_iopub_msg(timeout=10)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status" \
                and m["content"]["execution_state"] == "idle":
            break
    k.drain()


def export(folder, project):
    """`%accelerate export` of trainAndReport, for the Slurm and mpirun test
    (tests/slurm_test.go): python3 resume_e2e.py --export FOLDER PROJECT."""
    k = K()
    try:
        ok(k, CELL)
        c, msgs = ok(k, f"%accelerate export {folder} trainAndReport({run_cfg(project)})")
        print(text_of(msgs))
    finally:
        k.kc.stop_channels()
        k.km.shutdown_kernel(now=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--export"]:
        sys.exit(export(*sys.argv[2:4]))
    sys.exit(run_checks(CHECKS, always=("setup",)))
