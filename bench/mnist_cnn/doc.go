// Command mnist_cnn trains PyTorch's MNIST example network as notebooks/mnist_cnn.ipynb does, as a
// compiled program (the notebook's cells, without the notebook), for bench/mnist_cnn.sh to set
// beside PyTorch's run of the same example (bench/mnist_cnn_torch.py): two 3×3 convolutions, ReLU,
// max-pool, dropout 0.25, two linear layers with dropout 0.5, log-softmax, NLL loss, Adadelta lr
// 1.0, StepLR γ 0.7, batch 64 in the training set's order, test batch 1000, seed 1.
//
//	mnist_cnn [-epochs 1] [-steps N] [-cpuprofile FILE]
//
// prints one line per epoch, e.g. "goaccel epoch=1 procs=2 seconds=40.1 steps=938 loss=0.0031
// test_loss=0.0511 accuracy=98.30 eval_seconds=3.1": the training loop's wall time, and the test
// pass's apart. -steps stops each epoch's training after N steps (the test pass still runs);
// -cpuprofile writes a CPU profile of the whole run (go tool pprof), to see where the epoch's time
// goes op by op.
//
// Files:
//   - main.go: the network, the training and test loops and the timing.
package main
