// Drives a goaccel kernel through a Jupyter server with JupyterLab's own
// kernel client (@jupyterlab/services), the way JupyterLab's notebook,
// completer and inspector panels call it. Run by tests/jupyterlab_test.go
// with JUPYTER_BASE_URL and JUPYTER_TOKEN set; prints "ok <step>" lines and
// exits non-zero with "FAIL <step>: <why>" at the first failure.
import { KernelManager, ServerConnection } from '@jupyterlab/services';
import { Text } from '@jupyterlab/coreutils';
import WebSocket from 'ws';

const baseUrl = process.env.JUPYTER_BASE_URL;
const token = process.env.JUPYTER_TOKEN;
if (!baseUrl || !token) {
  console.error('FAIL setup: set JUPYTER_BASE_URL and JUPYTER_TOKEN');
  process.exit(2);
}

const serverSettings = ServerConnection.makeSettings({
  baseUrl,
  wsUrl: baseUrl.replace(/^http/, 'ws'),
  token,
  appendToken: true,
  WebSocket,
  fetch: (...args) => fetch(...args),
  Request,
  Headers,
});

let step = 'setup';
function check(ok, why) {
  if (!ok) {
    throw new Error(why);
  }
}
function pass(name) {
  console.log(`ok ${name}`);
}

// run executes code as a notebook cell does and collects the reply and the
// iopub messages of the request, in order.
async function run(kernel, code, { onIOPub } = {}) {
  const future = kernel.requestExecute({ code, stop_on_error: true, store_history: true, allow_stdin: false });
  const msgs = [];
  future.onIOPub = (msg) => {
    msgs.push(msg);
    if (onIOPub) {
      onIOPub(msg);
    }
  };
  const reply = await future.done;
  const of = (type) => msgs.filter((m) => m.header.msg_type === type);
  const text = (name) => of('stream').filter((m) => m.content.name === name).map((m) => m.content.text).join('');
  return { reply: reply.content, msgs, of, text };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// complete asks for completions the way JupyterLab's completer does: the
// editor's UTF-16 offset converted to code points, and the reply's code
// point range converted back before the text is patched.
async function complete(kernel, code, jsCursor) {
  const reply = await kernel.requestComplete({ code, cursor_pos: Text.jsIndexToCharIndex(jsCursor, code) });
  const c = reply.content;
  check(c.status === 'ok', `complete_reply status ${c.status}`);
  const start = Text.charIndexToJsIndex(c.cursor_start, code);
  const end = Text.charIndexToJsIndex(c.cursor_end, code);
  return { matches: c.matches, start, end, replaced: code.slice(start, end) };
}

const manager = new KernelManager({ serverSettings });
let kernel;
try {
  step = 'start a kernel';
  kernel = await withTimeout(manager.startNew({ name: 'goaccel' }), 60000, step);
  const info = (await withTimeout(kernel.info, 60000, 'kernel_info')) ;
  check(info.language_info.name === 'go', `language_info.name ${info.language_info.name}`);
  check(/^5\./.test(info.protocol_version), `protocol_version ${info.protocol_version}`);
  pass(`${step}: ${info.implementation} ${info.implementation_version}, protocol ${info.protocol_version}`);

  step = 'execute with streams';
  let r = await run(kernel, 'import (\n\t"fmt"\n\t"os"\n\t"strings"\n)\n\nfmt.Println("héllo 🎉 from stdout")\nfmt.Fprintln(os.Stderr, "to stderr")\nx := 21');
  check(r.reply.status === 'ok', `reply ${JSON.stringify(r.reply)}`);
  check(r.text('stdout').includes('héllo 🎉 from stdout'), `stdout ${JSON.stringify(r.text('stdout'))}`);
  check(r.text('stderr').includes('to stderr'), `stderr ${JSON.stringify(r.text('stderr'))}`);
  check(r.of('status').map((m) => m.content.execution_state).join(',') === 'busy,idle', 'status busy then idle');
  check(r.of('execute_input').length === 1 && r.of('execute_input')[0].content.code.includes('héllo'), 'execute_input echoes the code');
  pass(step);

  step = 'execute_result';
  r = await run(kernel, 'x * 2');
  const results = r.of('execute_result');
  check(results.length === 1 && results[0].content.data['text/plain'] === '42', `execute_result ${JSON.stringify(results.map((m) => m.content))}`);
  check(results[0].content.execution_count === r.reply.execution_count, 'execution_count matches the reply');
  pass(step);

  step = 'display_data and update_display_data';
  r = await run(kernel, 'import "github.com/goaccel/goaccel/display"\n\nh := display.New(display.Bundle{"text/html": "<b>step 0</b>"})\nh.Update(display.Bundle{"text/html": "<b>step 1</b>"})\ndisplay.Markdown("# done")');
  check(r.reply.status === 'ok', `reply ${JSON.stringify(r.reply)}`);
  const shown = r.of('display_data');
  const updated = r.of('update_display_data');
  check(shown.length === 2, `${shown.length} display_data, want 2`);
  const id = shown[0].content.transient && shown[0].content.transient.display_id;
  check(typeof id === 'string' && id.length > 0, 'the updatable display has a display_id');
  check(updated.length === 1 && updated[0].content.transient.display_id === id, 'update_display_data names the same display_id');
  check(updated[0].content.data['text/html'] === '<b>step 1</b>', 'the update carries the new content');
  check(shown[1].content.data['text/markdown'] === '# done', 'markdown display');
  pass(step);

  step = 'error';
  r = await run(kernel, 'var m map[string]int\nm["a"] = 1');
  const errors = r.of('error');
  check(r.reply.status === 'error', `reply status ${r.reply.status}`);
  check(errors.length === 1, `${errors.length} error messages, want 1`);
  check(Array.isArray(errors[0].content.traceback) && errors[0].content.traceback.length > 0, 'traceback is a list of strings');
  check(/nil map/.test(errors[0].content.evalue) && r.reply.ename === errors[0].content.ename, `error ${JSON.stringify(errors[0].content)}`);
  pass(step);

  step = 'complete after an emoji';
  const code = 's := "🎉🎉 and 𝔊o"\nstrings.Spl';
  let c = await complete(kernel, code, code.length);
  check(c.matches.some((m) => m.endsWith('Split')), `matches ${JSON.stringify(c.matches)}`);
  check(c.end === code.length, `cursor_end ${c.end} (JS index), want ${code.length}`);
  for (const m of c.matches) {
    check(m.startsWith(c.replaced), `match ${m} does not extend the replaced text ${JSON.stringify(c.replaced)}`);
  }
  const patched = code.slice(0, c.start) + c.matches.find((m) => m.endsWith('SplitN')) + code.slice(c.end);
  check(patched.endsWith('strings.SplitN') && patched.startsWith('s := "🎉🎉 and 𝔊o"\n'), `patched text ${JSON.stringify(patched)}`);
  // The cursor in the middle of a line, after emoji on the same line.
  const mid = 'fmt.Println("🎉", strings.Spl, "🎉")';
  const at = mid.indexOf('Spl') + 3;
  c = await complete(kernel, mid, at);
  check(c.replaced.endsWith('Spl') && c.end === at, `mid-line: replaced ${JSON.stringify(c.replaced)} ending at ${c.end}, want …Spl ending at ${at}`);
  pass(step);

  step = 'inspect after an emoji';
  const icode = 'y := "🎉"\nstrings.Split';
  const ireply = await kernel.requestInspect({ code: icode, cursor_pos: Text.jsIndexToCharIndex(icode.length, icode), detail_level: 0 });
  check(ireply.content.status === 'ok' && ireply.content.found, `inspect_reply ${JSON.stringify(ireply.content)}`);
  check(/func Split\(s, sep string\) \[\]string/.test(ireply.content.data['text/plain']), `inspect text ${JSON.stringify(ireply.content.data['text/plain'])}`);
  const ireply2 = await kernel.requestInspect({ code: '🎉🎉🎉 strings.Split', cursor_pos: Text.jsIndexToCharIndex(6, '🎉🎉🎉 strings.Split'), detail_level: 0 });
  check(ireply2.content.status === 'ok' && !ireply2.content.found, 'inspect on the emoji finds nothing (and does not fail)');
  pass(step);

  step = 'is_complete';
  for (const [src, want] of [['x := 1', 'complete'], ['for i := 0; i < 3; i++ {', 'incomplete'], ['func f() {\n\tif true {', 'incomplete'], ['x := )', 'invalid']]) {
    const ic = await kernel.requestIsComplete({ code: src });
    check(ic.content.status === want, `${JSON.stringify(src)}: ${ic.content.status}, want ${want}`);
    if (want === 'incomplete') {
      check(typeof ic.content.indent === 'string', `${JSON.stringify(src)}: no indent`);
    }
  }
  pass(step);

  step = 'history';
  const hist = await kernel.requestHistory({ hist_access_type: 'tail', n: 20, output: false, raw: true });
  check(hist.content.status === 'ok', `history status ${hist.content.status}`);
  check(hist.content.history.some((h) => String(h[2]).includes('x * 2')), `history ${JSON.stringify(hist.content.history).slice(0, 300)}`);
  pass(step);

  step = 'interrupt';
  let started;
  const startedP = new Promise((resolve) => { started = resolve; });
  const loop = run(kernel, 'fmt.Println("loop started")\nfor {\n}', {
    onIOPub: (m) => { if (m.header.msg_type === 'stream' && m.content.text.includes('loop started')) started(); },
  });
  await withTimeout(startedP, 30000, 'the loop to start');
  await kernel.interrupt();
  r = await withTimeout(loop, 30000, 'the interrupted cell to end');
  check(r.reply.status === 'error' && /interrupt/i.test(r.reply.ename + r.reply.evalue), `interrupted reply ${JSON.stringify(r.reply)}`);
  r = await run(kernel, 'x + 1');
  check(r.of('execute_result')[0].content.data['text/plain'] === '22', 'state survives the interrupt');
  pass(step);

  step = 'restart';
  await withTimeout(kernel.restart(), 60000, step);
  await withTimeout(kernel.info, 60000, 'kernel_info after restart');
  r = await run(kernel, 'x');
  check(r.reply.status === 'error' && r.of('error').length === 1, `after a restart x must be gone; reply ${JSON.stringify(r.reply)}`);
  r = await run(kernel, '6 * 7');
  check(r.of('execute_result')[0].content.data['text/plain'] === '42', 'the restarted kernel runs cells');
  pass(step);

  step = 'shutdown';
  const kid = kernel.id;
  await withTimeout(kernel.shutdown(), 30000, step);
  const running = await fetch(`${baseUrl}api/kernels?token=${token}`).then((res) => res.json());
  check(!running.some((k) => k.id === kid), `the kernel is still listed: ${JSON.stringify(running)}`);
  check(kernel.status === 'dead', `kernel status ${kernel.status}`);
  pass(step);
} catch (err) {
  console.log(`FAIL ${step}: ${err && err.message ? err.message : err}`);
  if (kernel && !kernel.isDisposed) {
    await kernel.shutdown().catch(() => {});
  }
  process.exit(1);
}
manager.dispose();
process.exit(0);
