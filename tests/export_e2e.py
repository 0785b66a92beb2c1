#!/usr/bin/env python3
"""`%accelerate export` from two kernel sessions, for tests/export_test.go:

    python3 export_e2e.py FOLDER LOCAL_MODULE

writes FOLDER/plain (a function using goaccel's packages) and FOLDER/derived
(one whose session imports a package of the local module LOCAL_MODULE with
`%go mod use`, so that the session runs in a derived executor). Run with
JUPYTER_DATA_DIR pointing at the freshly built kernel.
"""
import os
import sys

from kernel_e2e import K, text_of

PLAIN = [
    '''import (
	"fmt"
	"os"

	"github.com/goaccel/goaccel/tensors"
)''',
    '''func train(scale float64) float64 {
	sum := tensors.Ones(4).Sum().Item() * scale
	fmt.Println("rank", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE"), "sum", sum)
	return sum
}''',
]


def derived(module):
    return [
        f"%go mod use {module}",
        '''import (
	"fmt"
	"os"

	"example.com/mylib/greet"
)''',
        '''func hello(who string) string {
	s := greet.Hello(who)
	fmt.Println("rank", os.Getenv("RANK"), "of", os.Getenv("WORLD_SIZE"), s)
	return s
}''',
    ]


def export(cells, call, folder):
    k = K()
    try:
        for cell in cells + [f"%accelerate export --num_processes 2 {folder} {call}"]:
            c, msgs = k.run(cell, timeout=600)
            out = text_of(msgs) + text_of(msgs, "stderr")
            assert c["status"] == "ok", (cell, c, out)
        print(out)
    finally:
        k.kc.stop_channels()
        k.km.shutdown_kernel(now=True)


if __name__ == "__main__":
    folder, module = sys.argv[1:3]
    export(PLAIN, "train(2)", os.path.join(folder, "plain"))
    export(derived(module), 'hello("gopher")', os.path.join(folder, "derived"))
