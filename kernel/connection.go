package kernel

import (
	"encoding/json"
	"fmt"
	"os"
)

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// ReadConnectionFile reads and checks the connection file Jupyter passes to a kernel.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("read connection file: %w", err)
	}
	if err := json.Unmarshal(b, &ci); err != nil {
		return ci, fmt.Errorf("connection file %s is not valid JSON: %w", path, err)
	}
	return ci, ci.validate()
}

func (ci *ConnectionInfo) validate() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("connection file: transport %q is not supported (use tcp or ipc)", ci.Transport)
	}
	if ci.IP == "" {
		return fmt.Errorf("connection file: ip is missing")
	}
	if ci.SignatureScheme != "" && ci.SignatureScheme != "hmac-sha256" {
		return fmt.Errorf("connection file: signature_scheme %q is not supported (only hmac-sha256)", ci.SignatureScheme)
	}
	for name, p := range map[string]int{"shell_port": ci.ShellPort, "control_port": ci.ControlPort,
		"iopub_port": ci.IOPubPort, "stdin_port": ci.StdinPort, "hb_port": ci.HBPort} {
		if p <= 0 || p > 65535 {
			return fmt.Errorf("connection file: %s %d is not a valid port", name, p)
		}
	}
	return nil
}

// Endpoint returns the ZeroMQ address of one channel's port, as pyzmq forms it
// ("tcp://127.0.0.1:5555", "ipc://kernel-ipc-5555").
func (ci ConnectionInfo) Endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", ci.IP, port)
}
