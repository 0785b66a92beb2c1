package cli

import "runtime"

// machineLimits returns no open-file limit (Windows has none of the Unix kind) and the core count.
func machineLimits() (fileLimit uint64, cores int) { return 1 << 20, runtime.NumCPU() }
