# Sourced by the benchmark scripts that run PyTorch: glibc keeps PyTorch's freed multi-megabyte
# buffers for reuse instead of handing them back to the kernel. With glibc's defaults a tensor
# freed after each step is mapped and faulted in anew on the next one: conv2d fwd+bwd alternated
# between about 4 ms and 20 ms a call, the GPT step took 151 ms instead of 62. A fair baseline
# runs in PyTorch's steady state. (Go's own allocator ignores these variables.) bench/peak_rss.sh does
# not source it: memory kept for reuse would count against PyTorch's peak.
export MALLOC_MMAP_THRESHOLD_=33554432 # the most glibc accepts (32 MiB)
export MALLOC_TRIM_THRESHOLD_=4294967296
