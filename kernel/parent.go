package kernel

import (
	"context"
	"os"
	"strconv"
	"time"
)

// watchParent stops the kernel when the process that started it exits, as
// ipykernel's parent poller does: front ends such as `jupyter run` exit
// without shutting their kernel down. Jupyter names the parent in
// JPY_PARENT_PID; without it there is nothing to watch.
func (k *Kernel) watchParent(ctx context.Context) {
	pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || pid <= 1 || os.Getppid() != pid {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != pid {
				k.log.Info("the process that started the kernel exited; shutting down", "parent_pid", pid)
				k.stop()
				return
			}
		}
	}
}
