package executor

import (
	"fmt"
	"os"
	"syscall"
)

// InheritedPipes returns the child's ends of the request and event pipes,
// which the Supervisor passes on fd 3 and 4, and marks them close-on-exec:
// a process that a cell starts (exec.Command, a shell) inherits only
// stdin, stdout and stderr, never the kernel's pipes. It fails when fd 3 is
// not open: the process was not started by a Supervisor.
func InheritedPipes() (requests, events *os.File, err error) {
	for _, fd := range []int{3, 4} {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return nil, nil, fmt.Errorf("executor: fd %d is not open (the executor is started by the kernel, not by hand): %w", fd, err)
		}
		syscall.CloseOnExec(fd)
	}
	return os.NewFile(3, "requests"), os.NewFile(4, "events"), nil
}
