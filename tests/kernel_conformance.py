"""jupyter_kernel_test's conformance suite (KernelTests) against goaccel.

Run by tests/kernel_conformance_test.go with the PyPI stack's python
(.venv/jupyter: jupyter_kernel_test 0.7, jupyter_client 8) and JUPYTER_DATA_DIR
pointing at the freshly built kernel:

    python -m unittest -v kernel_conformance

Every test of KernelTests gets goaccel's code samples, so none skips (a skip
fails the run: see main), and a few tests of our own use the suite's helpers
and schemas for what it leaves out: stdin, update_display_data, comm_info
and an error's traceback.
"""
import sys
import unittest

import jupyter_kernel_test as jkt
from jupyter_kernel_test.msgspec_v5 import validate_message

DISPLAY = 'import "github.com/goaccel/goaccel/display"\n'


class GoaccelKernelTests(jkt.KernelTests):
    kernel_name = "goaccel"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "to stderr")'

    # kc.complete(text) puts the cursor at the end of text; goaccel answers
    # with the members after the dot (cursor_start there), as ipykernel does.
    completion_samples = [
        {"text": "strings.ToUpp", "matches": {"ToUpper", "ToUpperSpecial"}},
        {"text": "strings.Split", "matches": {"Split", "SplitAfter", "SplitAfterN", "SplitAfterSeq", "SplitN", "SplitSeq"}},  # Go 1.26
        {"text": "fmt.Sprintl", "matches": {"Sprintln"}},
        {"text": "zzNothingStartsSo", "matches": set()},
    ]

    complete_code_samples = ["x := 1", 'fmt.Println("hi")', "func f() int { return 1 }", "%time x := 1"]
    incomplete_code_samples = ["func f() {", "for i := 0; i < 3; i++ {", "xs := []int{1,", "s := `raw"]
    invalid_code_samples = ["x := )", "func f() }", "x = = 1", "if x {} else else {}"]

    code_page_something = "strings.Split?"
    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": 'strings.Repeat("go", 3)', "result": "gogogo"},
    ]
    # display.X shows a display_data at once (it returns nil, not a result).
    code_display_data = [
        {"code": DISPLAY + 'display.HTML("<b>bold</b>")', "mime": "text/html"},
        {"code": DISPLAY + 'display.Markdown("# title")', "mime": "text/markdown"},
        {"code": DISPLAY + 'display.SVG(`<svg xmlns="http://www.w3.org/2000/svg"/>`)', "mime": "image/svg+xml"},
        {"code": DISPLAY + 'display.JSON(map[string]int{"a": 1})', "mime": "application/json"},
    ]

    # Glob patterns as IPython's; this one matches "6 * 7" only.
    code_history_pattern = "6 ? 7"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "strings.Split"
    code_clear_output = DISPLAY + "display.Clear(false)"

    # --- what KernelTests leaves out, with its helpers and schemas ---

    def test_stdin_input_request(self) -> None:
        self.flush_channels()
        msg_id = self.kc.execute('line, _ := bufio.NewReader(os.Stdin).ReadString(\'\\n\')\nfmt.Println("got", strings.TrimSpace(line))',
                                 allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=jkt.TIMEOUT)
        # jupyter_kernel_test's schema types password as a number; the
        # messaging spec (and ipykernel) send a boolean: check the spec's.
        validate_message(dict(req, content=dict(req["content"], password=0)), "input_request", msg_id)
        self.assertIs(req["content"]["password"], False)
        self.assertEqual(req["parent_header"]["msg_id"], msg_id)
        self.kc.input("gopher")
        reply = self.get_non_kernel_info_reply(timeout=jkt.TIMEOUT)
        validate_message(reply, "execute_reply", msg_id)
        self.assertEqual(reply["content"]["status"], "ok")
        out = self.iopub_until_idle(msg_id)
        text = "".join(m["content"]["text"] for m in out if m["msg_type"] == "stream")
        self.assertIn("got gopher", text)

    def test_update_display_data(self) -> None:
        self.flush_channels()
        reply, out = self.execute_helper(DISPLAY + 'h := display.New("first")\nh.Update("second")\nfmt.Println()')
        self.assertEqual(reply["content"]["status"], "ok")
        types = [m["msg_type"] for m in out]
        self.assertIn("display_data", types)
        self.assertIn("update_display_data", types)
        shown = next(m for m in out if m["msg_type"] == "display_data")
        update = next(m for m in out if m["msg_type"] == "update_display_data")
        self.assertEqual(shown["content"]["transient"]["display_id"], update["content"]["transient"]["display_id"])
        self.assertIn("second", update["content"]["data"]["text/plain"])

    def test_comm_info_without_comms(self) -> None:
        self.flush_channels()
        msg_id = self.kc.comm_info()
        reply = self.get_non_kernel_info_reply(timeout=jkt.TIMEOUT)
        validate_message(reply, "comm_info_reply", msg_id)
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertIsInstance(reply["content"]["comms"], dict)

    def test_error_traceback_names_the_cell_line(self) -> None:
        self.flush_channels()
        reply, out = self.execute_helper('x := 1\n_ = x\npanic("on line three")')
        self.assertEqual(reply["content"]["status"], "error")
        errors = [m for m in out if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("on line three", errors[0]["content"]["evalue"])
        self.assertIn("line 3", "\n".join(errors[0]["content"]["traceback"]))

    def iopub_until_idle(self, msg_id):
        out = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=jkt.TIMEOUT)
            validate_message(msg, msg["msg_type"], msg_id)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return out
            out.append(msg)


def main() -> int:
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(GoaccelKernelTests)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    for test, why in result.skipped:
        print(f"FAIL {test.id()} skipped ({why}): give it goaccel's code sample")
    if result.skipped or not result.wasSuccessful():
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
