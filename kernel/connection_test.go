package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConn(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const goodConn = `{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5,
 "ip": "127.0.0.1", "key": "k", "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "goaccel"}`

func TestReadConnectionFileAcceptsJupyterClientOutput(t *testing.T) {
	ci, err := ReadConnectionFile(writeConn(t, goodConn))
	if err != nil {
		t.Fatal(err)
	}
	if ci.Endpoint(ci.ShellPort) != "tcp://127.0.0.1:1" || ci.Key != "k" {
		t.Fatalf("info = %+v", ci)
	}
	ci.Transport = "ipc"
	if got := ci.Endpoint(7); got != "ipc://127.0.0.1-7" {
		t.Fatalf("ipc endpoint = %s", got)
	}
}

func TestReadConnectionFileRejectsBadInput(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"not json", "{", "not valid JSON"},
		{"bad scheme", strings.Replace(goodConn, "hmac-sha256", "hmac-md5", 1), "signature_scheme"},
		{"bad transport", strings.Replace(goodConn, `"tcp"`, `"udp"`, 1), "transport"},
		{"missing port", strings.Replace(goodConn, `"hb_port": 5`, `"hb_port": 0`, 1), "hb_port"},
		{"missing ip", strings.Replace(goodConn, `"127.0.0.1"`, `""`, 1), "ip is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadConnectionFile(writeConn(t, tt.body)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := ReadConnectionFile(filepath.Join(t.TempDir(), "nope.json")); err == nil {
		t.Fatal("missing file must fail")
	}
}
