// Package discover lists the machine's NVIDIA GPUs through NVML (libnvidia-ml.so.1, loaded at run
// time by github.com/NVIDIA/go-nvml): names, memory and utilisation for `goaccel env`,
// `%accelerate env` and the default number of processes. Builds without cgo have no NVML and
// report that instead. NVML is never called after a failed nvmlInit (go-nvml then ends the
// process on the first missing symbol).
//
//	gpus, err := discover.GPUs() // Index, Name, MemoryTotal, Utilization, DriverVersion, …
//	fmt.Println(discover.Report()) // "2 (driver 580.65.06, CUDA 13.0): cuda:0 …"
//
// Files:
//   - discover.go: GPU, Count and Report.
//   - nvml.go: GPUs through go-nvml, initialised once (cgo builds).
//   - nvml_nocgo.go: GPUs without cgo: an error saying NVML is not in the build.
package discover
