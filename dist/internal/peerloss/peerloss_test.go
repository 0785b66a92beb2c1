package peerloss

import (
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asReadError wraps errno as net.Conn.Read returns it.
func asReadError(errno error) error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", errno)}
}

func TestEveryWayAKernelReportsAnUnreachableHostIsHostGone(t *testing.T) {
	cases := []struct {
		name    string
		err     error
		silence time.Duration
		want    Cause
	}{
		{"ETIMEDOUT (keep-alive or user timeout ran out)", asReadError(syscall.ETIMEDOUT), 0, HostGone},
		{"EHOSTUNREACH (neighbour entry expired)", asReadError(syscall.EHOSTUNREACH), 0, HostGone},
		{"ENETUNREACH (route gone)", asReadError(syscall.ENETUNREACH), 0, HostGone},
		{"EHOSTDOWN", asReadError(syscall.EHOSTDOWN), 0, HostGone},
		{"ENETDOWN (local interface down)", asReadError(syscall.ENETDOWN), 0, HostGone},
		{"write EHOSTUNREACH", &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EHOSTUNREACH)}, 0, HostGone},
		{"wrapped by fmt", fmt.Errorf("send: %w", asReadError(syscall.ETIMEDOUT)), 0, HostGone},
		{"reset after a long silence (host rebooted)", asReadError(syscall.ECONNRESET), LongSilence, HostGone},
		{"broken pipe after a long silence", asReadError(syscall.EPIPE), 2 * LongSilence, HostGone},
		{"reset while talking (process killed)", asReadError(syscall.ECONNRESET), 10 * time.Millisecond, ProcessGone},
		{"broken pipe while talking", asReadError(syscall.EPIPE), 0, ProcessGone},
		{"EOF (process exited)", io.EOF, time.Minute, ProcessGone},
		{"unexpected EOF", io.ErrUnexpectedEOF, 0, ProcessGone},
		{"connection refused", asReadError(syscall.ECONNREFUSED), 0, ProcessGone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Classify(c.err, c.silence); got != c.want {
				t.Errorf("Classify(%v, %v) = %q, want %q", c.err, c.silence, got, c.want)
			}
			r := Reason(c.err, c.silence)
			if !strings.HasPrefix(r, c.want.String()+": ") {
				t.Errorf("Reason = %q, want it to start with %q", r, c.want.String())
			}
		})
	}
}

func TestReasonSaysWhatTheKernelSaid(t *testing.T) {
	if r := Reason(asReadError(syscall.EHOSTUNREACH), 0); !strings.HasSuffix(r, "no route to host") {
		t.Errorf("Reason = %q, want the kernel's words at the end", r)
	}
	if r := Reason(io.EOF, 0); !strings.HasSuffix(r, "the peer closed the connection") {
		t.Errorf("Reason(EOF) = %q", r)
	}
}
