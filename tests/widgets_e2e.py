#!/usr/bin/python3
"""End-to-end test of Jupyter comms and ipywidgets 8's protocol (package
widgets) through jupyter_client, sending what a front end sends: comm_info,
comm_open, comm_msg with update, request_state and custom methods, binary
buffers, comm_close, and the control comm's request_states.

Run by tests/widgets_e2e_test.go with JUPYTER_DATA_DIR pointing at the freshly
built kernel (and HF_HOME, GOACCEL_CACHE at scratch folders for the launch
check). Works with jupyter_client 7 (Debian) and 8. Prints PASS/FAIL per
check; exits 1 if any check failed.
"""
import json
import sys
import time
import uuid

import kernel_e2e
from kernel_e2e import result_of, run_checks, text_of, types_of, validate

CHECKS = []
VIEW = "application/vnd.jupyter.widget-view+json"

_spec_validate = kernel_e2e.VALIDATE


def _validate(msg, msg_type=None, parent=None):
    """ipykernel's references want every MIME value a string; the messaging
    spec lets a JSON type (+json) carry JSON, as ipywidgets' own view bundle
    does. Such values are checked here, then validated as their JSON text."""
    data = msg["content"].get("data")
    if msg["msg_type"] in ("display_data", "execute_result", "update_display_data") and isinstance(data, dict):
        assert all(isinstance(v, str) or t.endswith("json") for t, v in data.items()), data
        data = {t: v if isinstance(v, str) else json.dumps(v) for t, v in data.items()}
        msg = dict(msg, content=dict(msg["content"], data=data))
    return _spec_validate(msg, msg_type, parent)


if _spec_validate:
    kernel_e2e.VALIDATE = _validate


def check(fn):
    CHECKS.append(fn)
    return fn


def ok(k, code, timeout=60):
    c, msgs = k.run(code, timeout=timeout)
    assert c["status"] == "ok", (code, c, [m["content"] for m in msgs if m["msg_type"] in ("error", "stream")])
    return c, msgs


def send(k, msg_type, content, buffers=None):
    """Sends a shell message as a front end does; returns its msg_id."""
    msg = k.kc.session.msg(msg_type, content)
    k.kc.session.send(k.kc.shell_channel.socket, msg, buffers=buffers or [])
    return msg["header"]["msg_id"]


def comm_msg(k, comm_id, data, buffers=None):
    return send(k, "comm_msg", {"comm_id": comm_id, "data": data}, buffers)


def opens(msgs, model=None):
    """The comm_open messages among msgs, of widget model `model` if given."""
    out = []
    for m in msgs:
        if m["msg_type"] != "comm_open":
            continue
        state = m["content"]["data"].get("state", {})
        if model is None or state.get("_model_name") == model:
            out.append(m)
    return out


def comm_msgs(msgs, comm_id, method=None):
    return [m for m in msgs if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
            and (method is None or m["content"]["data"].get("method") == method)]


def comm_info(k, target=None):
    content = {} if target is None else {"target_name": target}
    msg_id = send(k, "comm_info_request", content)
    rep = k.reply(msg_id)
    validate(rep, "comm_info_reply", msg_id)
    k.iopub(msg_id)
    return rep["content"]["comms"]


def collect(k, until, timeout=60):
    """iopub messages (any parent) until until(msgs) is true."""
    msgs, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msgs.append(k.kc.get_iopub_msg(timeout=0.2))
        except Exception:
            pass
        if until(msgs):
            return msgs
    raise AssertionError(f"timed out; saw {types_of(msgs)}")


STATE = {}  # widgets the checks share: model ids by name


@check
def no_comms_before_widgets(k):
    assert comm_info(k) == {}, "comms before any widget"
    ok(k, 'import ("fmt"; "time"; "github.com/goaccel/goaccel/widgets")')


@check
def a_widget_opens_its_comm_and_shows_as_the_cell_result(k):
    c, msgs = ok(k, 'n := widgets.NewIntSlider("n", 3, 0, 10)\nn')
    exec_id = msgs[0]["parent_header"]["msg_id"]
    slider = opens(msgs, "IntSliderModel")
    assert len(slider) == 1, types_of(msgs)
    o = slider[0]
    assert o["content"]["target_name"] == "jupyter.widget", o["content"]
    assert o["metadata"].get("version") == "2.1.0", o["metadata"]
    assert o["parent_header"]["msg_id"] == exec_id, "a cell's comm_open has the cell as parent"
    state = o["content"]["data"]["state"]
    assert state["value"] == 3 and state["min"] == 0 and state["max"] == 10 and state["description"] == "n", state
    assert state["_model_module"] == "@jupyter-widgets/controls" and state["_model_module_version"] == "2.0.0", state
    layout = state["layout"].removeprefix("IPY_MODEL_")
    assert opens(msgs, "LayoutModel") and opens(msgs, "LayoutModel")[0]["content"]["comm_id"] == layout, "layout model"
    res = [m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"]
    assert res[VIEW] == {"model_id": o["content"]["comm_id"], "version_major": 2, "version_minor": 1}, res
    assert "IntSlider" in res["text/plain"], res
    STATE["n"] = o["content"]["comm_id"]


@check
def comm_info_filters_by_target(k):
    all_comms = comm_info(k)
    assert all_comms[STATE["n"]] == {"target_name": "jupyter.widget"}, all_comms
    assert STATE["n"] in comm_info(k, "jupyter.widget")
    assert comm_info(k, "some.other.target") == {}


@check
def an_update_is_echoed_and_read_by_the_next_cell(k):
    msg_id = comm_msg(k, STATE["n"], {"method": "update", "state": {"value": 7}, "buffer_paths": []})
    msgs = k.iopub(msg_id)
    echo = comm_msgs(msgs, STATE["n"], "echo_update")
    assert len(echo) == 1 and echo[0]["content"]["data"]["state"] == {"value": 7}, types_of(msgs)
    assert echo[0]["parent_header"]["msg_id"] == msg_id, "echo_update answers the front end's update"
    c, msgs = ok(k, "n.Value()")
    assert result_of(msgs) == "7", result_of(msgs)


@check
def an_out_of_range_update_is_corrected(k):
    msg_id = comm_msg(k, STATE["n"], {"method": "update", "state": {"value": 99}, "buffer_paths": []})
    msgs = k.iopub(msg_id)
    assert comm_msgs(msgs, STATE["n"], "echo_update"), types_of(msgs)
    fix = comm_msgs(msgs, STATE["n"], "update")
    assert fix and fix[0]["content"]["data"]["state"]["value"] == 10, [m["content"] for m in msgs]
    c, msgs = ok(k, "n.Value()")
    assert result_of(msgs) == "10"


@check
def request_state_sends_the_whole_state(k):
    msg_id = comm_msg(k, STATE["n"], {"method": "request_state"})
    msgs = k.iopub(msg_id)
    up = comm_msgs(msgs, STATE["n"], "update")
    assert len(up) == 1 and up[0]["parent_header"]["msg_id"] == msg_id, types_of(msgs)
    st = up[0]["content"]["data"]["state"]
    assert st["_model_name"] == "IntSliderModel" and st["value"] == 10 and st["_view_name"] == "IntSliderView", st


@check
def binary_state_travels_as_buffers(k):
    c, msgs = ok(k, 'img := widgets.NewImage([]byte("\\x89PNG fake"))\nwidgets.Display(img)')
    o = opens(msgs, "ImageModel")[0]
    assert o["content"]["data"]["buffer_paths"] == [["value"]], o["content"]["data"]
    assert "value" not in o["content"]["data"]["state"]
    assert [bytes(b) for b in o["buffers"]] == [b"\x89PNG fake"], o["buffers"]
    assert any(m["msg_type"] == "display_data" and VIEW in m["content"]["data"] for m in msgs), types_of(msgs)
    img = o["content"]["comm_id"]
    msg_id = comm_msg(k, img, {"method": "update", "state": {"format": "gif"}, "buffer_paths": [["value"]]},
                      buffers=[b"GIF89a"])
    echo = comm_msgs(k.iopub(msg_id), img, "echo_update")
    assert echo and [bytes(b) for b in echo[0]["buffers"]] == [b"GIF89a"], echo
    c, msgs = ok(k, "string(img.Value())")
    assert result_of(msgs) == "GIF89a", result_of(msgs)


@check
def a_click_runs_its_callback_after_the_running_cell_into_the_cells_area(k):
    c, msgs = ok(k, 'clicks := 0\nb := widgets.NewButton("go")\nb.OnClick(func() { clicks++; fmt.Println("clicked", clicks) })\nb')
    button = opens(msgs, "ButtonModel")[0]["content"]["comm_id"]
    area = [o for o in opens(msgs, "OutputModel")]
    assert len(area) == 1, "the cell's callback area"
    area = area[0]["content"]["comm_id"]
    res = [m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"][VIEW]["model_id"]
    box = [o for o in opens(msgs, "VBoxModel") if o["content"]["comm_id"] == res]
    assert box and box[0]["content"]["data"]["state"]["children"] == ["IPY_MODEL_" + button, "IPY_MODEL_" + area], \
        "a widget result is shown with its cell's callback area under it"

    slow = k.kc.execute("time.Sleep(1500 * time.Millisecond)")
    collect(k, lambda ms: any(m["msg_type"] == "execute_input" and m["parent_header"]["msg_id"] == slow for m in ms))
    click = comm_msg(k, button, {"method": "custom", "content": {"event": "click"}})
    order = []
    deadline = time.monotonic() + 30
    while "cell idle" not in order and time.monotonic() < deadline:
        try:
            m = k.kc.get_iopub_msg(timeout=0.1)
        except Exception:
            continue
        parent = m["parent_header"].get("msg_id")
        if parent == click and m["msg_type"] == "status":
            order.append("click " + m["content"]["execution_state"])
        if parent != slow:
            continue
        if m["msg_type"] == "status":
            order.append("cell " + m["content"]["execution_state"])
        if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == area:
            order.append("area msg_id=" + m["content"]["data"]["state"]["msg_id"])
        if m["msg_type"] == "stream" and "clicked 1" in m["content"]["text"]:
            order.append("callback output")
    # The click is idle at once (a front end sends a widget's next update
    # only after that) and the cell busy again; its callback ends the
    # running cell, before the cell's idle, with the cell as parent,
    # captured into the button's area.
    want = ["click busy", "click idle", "cell busy", "area msg_id=" + slow, "callback output", "area msg_id=", "cell idle"]
    assert order == want, order
    assert k.reply(slow, timeout=10)["content"]["status"] == "ok"
    k.drain()
    c, msgs = ok(k, "clicks")
    assert result_of(msgs) == "1", result_of(msgs)
    STATE["button"] = button


@check
def a_panicking_callback_is_reported_and_the_session_kept(k):
    c, msgs = ok(k, 'bad := widgets.NewButton("bad")\nbad.OnClick(func() { var m map[string]int; m["x"] = 1 })\nwidgets.Display(bad)')
    bad = opens(msgs, "ButtonModel")[0]["content"]["comm_id"]
    click = comm_msg(k, bad, {"method": "custom", "content": {"event": "click"}})
    out = k.iopub(click, 30)  # busy, the callback's report, then idle (as ipykernel: idle waits for the callbacks)
    err = text_of(out, "stderr")
    assert "panic in a widget callback: assignment to entry in nil map" in err and "cell [" in err, err
    c, msgs = ok(k, "clicks + 1")
    assert result_of(msgs) == "2"


@check
def an_output_widget_captures_what_a_cell_prints(k):
    c, msgs = ok(k, 'out := widgets.NewOutput()\nwidgets.Display(out)\nout.Capture(func() { fmt.Println("inside") })\nfmt.Println("outside")')
    exec_id = msgs[0]["parent_header"]["msg_id"]
    out = opens(msgs, "OutputModel")[0]["content"]["comm_id"]
    seq = []
    for m in msgs:
        if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == out:
            seq.append("msg_id=" + m["content"]["data"]["state"]["msg_id"])
        elif m["msg_type"] == "stream":
            seq.append(m["content"]["text"].strip())
    assert seq == ["msg_id=" + exec_id, "inside", "msg_id=", "outside"], seq


@check
def interact_reruns_its_function_on_a_change(k):
    c, msgs = ok(k, 'w := widgets.NewIntSlider("w", 2, 0, 9)\nwidgets.Interact(func() { fmt.Println("w =", w.Value()) }, w)')
    assert "w = 2" in text_of(msgs), text_of(msgs)
    w = opens(msgs, "IntSliderModel")[0]["content"]["comm_id"]
    msg_id = comm_msg(k, w, {"method": "update", "state": {"value": 5}, "buffer_paths": []})
    rerun = k.iopub(msg_id, 30)
    assert "w = 5" in text_of(rerun), types_of(rerun)
    assert any(m["msg_type"] == "clear_output" for m in rerun), types_of(rerun)


@check
def the_control_comm_returns_every_state(k):
    ctl = str(uuid.uuid4())
    k.iopub(send(k, "comm_open", {"comm_id": ctl, "target_name": "jupyter.widget.control", "data": {}}))
    msg_id = comm_msg(k, ctl, {"method": "request_states"})
    msgs = k.iopub(msg_id)
    rep = comm_msgs(msgs, ctl, "update_states")
    assert rep, types_of(msgs)
    states = rep[0]["content"]["data"]["states"]
    # As ipywidgets sends them: the model's class beside its state.
    n, button = states[STATE["n"]], states[STATE["button"]]
    assert n["model_name"] == "IntSliderModel" and n["model_module"] == "@jupyter-widgets/controls", n
    assert n["state"]["value"] == 10 and button["model_name"] == "ButtonModel", len(states)
    paths = rep[0]["content"]["data"]["buffer_paths"]
    assert any(p[1:] == ["state", "value"] for p in paths) and len(rep[0]["buffers"]) == len(paths), paths
    k.iopub(send(k, "comm_close", {"comm_id": ctl, "data": {}}))


@check
def bad_comm_messages_never_hurt_the_kernel(k):
    for t, content in (("comm_msg", {"comm_id": "nope", "data": {"method": "update", "state": {}}}),
                       ("comm_msg", {"comm_id": STATE["n"], "data": {"method": "update", "state": "not a dict"}}),
                       ("comm_msg", {"comm_id": STATE["n"], "data": {"method": "update", "state": {"value": "x"}}}),
                       ("comm_msg", {"comm_id": STATE["n"], "data": {"method": "teleport"}}),
                       ("comm_msg", {"data": 5}),
                       ("comm_open", {"comm_id": "new", "target_name": "jupyter.widget", "data": {}}),
                       ("comm_close", {"comm_id": "never-opened", "data": {}})):
        k.iopub(send(k, t, content))
    c, msgs = ok(k, "n.Value()")
    assert result_of(msgs) == "10", result_of(msgs)


@check
def a_comm_closed_by_the_front_end_is_gone(k):
    c, msgs = ok(k, 'gone := widgets.NewCheckbox("gone", false)\nwidgets.Display(gone)')
    gone = opens(msgs, "CheckboxModel")[0]["content"]["comm_id"]
    k.iopub(send(k, "comm_close", {"comm_id": gone, "data": {}}))
    assert gone not in comm_info(k, "jupyter.widget")


LAUNCH = '''import (
	"os"
	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/tensors"
)
func train(n int) int {
	acc := accelerate.New(accelerate.Config{})
	var x *widgets.IntSlider
	if acc.IsMainProcess() {
		x = widgets.NewIntSlider("x", 0, 0, 10)
		widgets.Display(x)
	}
	ds := data.NewTensorDataset(tensors.Zeros(n, 1), tensors.Zeros(n, 1))
	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 1})
	acc.Prepare(&loader)
	steps := 0
	for loader.Next() {
		steps++
		time.Sleep(2 * time.Millisecond)
	}
	if x != nil {
		return steps*100 + x.Value()
	}
	return steps
}'''


@check
def a_workers_widget_and_the_stop_button_of_a_launch(k):
    ok(k, LAUNCH)
    cell = k.kc.execute("widgets.Display(notebook_launcher.StopButton())\n%accelerate launch --num_processes 2 train(4000)")

    def seen(model):
        return lambda ms: any(m["msg_type"] == "comm_open" and m["parent_header"].get("msg_id") == cell and
                              m["content"]["data"]["state"].get("_model_name") == model for m in ms)
    msgs = collect(k, lambda ms: seen("ButtonModel")(ms) and seen("IntSliderModel")(ms), timeout=120)
    stop = opens(msgs, "ButtonModel")[-1]["content"]["comm_id"]
    x = opens(msgs, "IntSliderModel")[-1]["content"]["comm_id"]
    upd = comm_msg(k, x, {"method": "update", "state": {"value": 5}, "buffer_paths": []})
    # The worker's widget answers through the relay, to the front end's message.
    collect(k, lambda ms: any(m["msg_type"] == "comm_msg" and m["parent_header"].get("msg_id") == upd and
                              m["content"]["data"].get("method") == "echo_update" for m in ms), timeout=60)
    comm_msg(k, stop, {"method": "custom", "content": {"event": "click"}})
    rep = k.reply(cell, timeout=120)
    assert rep["content"]["status"] == "ok", rep["content"]
    msgs = collect(
        k, lambda ms: any(m["msg_type"] == "status" and m["parent_header"].get("msg_id") == cell and
                          m["content"]["execution_state"] == "idle" for m in ms), timeout=30)
    mine = [m for m in msgs if m["parent_header"].get("msg_id") == cell]
    res = result_of(mine)
    assert res is not None, types_of(mine)
    v = int(res)
    assert v % 100 == 5 and 0 < v // 100 < 2000, f"result {v}: want steps*100+5 with fewer than the 2000 steps of a pass"
    print(f"  the stopped launch returned {v}: {v // 100} steps on rank 0, slider value {v % 100}")
    said = text_of(mine, "stderr") + text_of(mine)
    assert "stop requested" in said, said
    assert any(m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == stop and
               m["content"]["data"].get("state", {}).get("disabled") is True for m in msgs), "the Stop button greys out"
    k.drain()


def main():
    return run_checks(CHECKS)


if __name__ == "__main__":
    sys.exit(main())
