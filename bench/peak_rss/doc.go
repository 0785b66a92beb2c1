// Command peak_rss trains one of the notebooks' models for a number of steps and prints the
// process's peak resident memory (VmHWM), for bench/peak_rss.sh to set beside PyTorch's
// (bench/peak_rss_torch.py, the same model, data and steps):
//
//	-model mnist: notebooks/mnist.ipynb's MLP 784-256-10, AdamW, batch 128, shuffled MNIST
//	-model gpt:   notebooks/char_gpt.ipynb's GPT (0.8 M parameters), AdamW with nanoGPT's decay
//	              groups, batch 16 × 64 tokens drawn from a fixed random 500,000-token corpus
//
// It prints one line, e.g. "goaccel model=gpt steps=200 rss_start_mib=9.1 peak_rss_mib=61.2",
// where rss_start_mib is the resident memory before the data and the model exist. With
// -print-mnist-dir it prints the folder of the MNIST files it reads and exits.
//
// Files:
//   - main.go: the flags, the MNIST and GPT training loops and the read of VmHWM
//     from /proc/self/status.
package main
