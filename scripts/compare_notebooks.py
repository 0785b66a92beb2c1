#!/usr/bin/env python3
"""Compares the outputs of notebooks executed on two machines (scripts/test-arm64.sh notebooks).

    compare_notebooks.py DIR_A DIR_B NAME...

For each NAME, DIR_A/NAME.ipynb and DIR_B/NAME.ipynb must have the same outputs, cell by cell:
the same text, results and images, bit for bit. What depends on the machine's speed is left out:
the rates and elapsed times of progress bars, "in N s", the launch status table (samples/s,
memory) and the random suffix of temporary folders. Streams are compared as sets of lines per
cell, since the ranks of a launch print in whatever order they reach the kernel. Exits 1 and names every difference when there is one.
"""
import hashlib
import json
import re
import sys

TIMING = [
    (re.compile(r"\[\d\d:\d\d(?:<|&lt;)\d\d:\d\d, [\d.]+(?:s/)?(?:it|step)(?:/s)?"), "[elapsed, rate"),
    (re.compile(r"\bin [\d.]+ s\b"), "in N s"),
    # Folders made by os.MkdirTemp in a cell (mnist_ddp's log folder): their random suffix.
    (re.compile(r"(?:/[^\s/]+)*?/(goaccel-[a-z-]+-)\d+"), r"TMP/\1N"),
]


def normalize(text):
    for pattern, repl in TIMING:
        text = pattern.sub(repl, text)
    return text


def outputs(path):
    """The comparable outputs of each code cell of the notebook at path."""
    with open(path) as f:
        doc = json.load(f)
    cells = []
    for cell in doc["cells"]:
        if cell["cell_type"] != "code":
            continue
        got, streams = [], {}
        for o in cell.get("outputs", []):
            kind = o["output_type"]
            if kind == "stream":
                streams.setdefault(o["name"], []).extend("".join(o["text"]).splitlines())
            elif kind in ("execute_result", "display_data"):
                data = o["data"]
                if "goaccel-launch-status" in "".join(data.get("text/html", "")):
                    continue  # rates and memory of the machine
                for mime in sorted(data):
                    value = "".join(data[mime]) if isinstance(data[mime], list) else json.dumps(data[mime])
                    if mime.startswith("image/"):
                        value = "sha1 " + hashlib.sha1(value.encode()).hexdigest()
                    got.append((kind, mime, normalize(value)))
            elif kind == "error":
                got.append((kind, o["ename"], o["evalue"]))
        for name, lines in sorted(streams.items()):
            got.append(("stream", name, "\n".join(sorted(normalize(l) for l in lines))))
        cells.append(got)
    return cells


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: compare_notebooks.py DIR_A DIR_B NAME...")
    a_dir, b_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = False
    for name in names:
        a, b = outputs(f"{a_dir}/{name}.ipynb"), outputs(f"{b_dir}/{name}.ipynb")
        if len(a) != len(b):
            print(f"{name}: {len(a)} code cells against {len(b)}")
            failed = True
            continue
        same = True
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                print(f"{name}, code cell {i + 1}:\n  {a_dir}: {x}\n  {b_dir}: {y}")
                same, failed = False, True
        print(f"{name}: {'the same outputs' if same else 'outputs differ'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
