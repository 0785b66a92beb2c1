//go:build !linux

package mesh

import (
	"net"
	"time"
)

// setUserTimeout is a no-op where TCP_USER_TIMEOUT does not exist; keep-alive
// probes still find an idle connection's peer gone.
func setUserTimeout(*net.TCPConn, time.Duration) {}
