"""PyTorch's MNIST example (pytorch/examples, mnist/main.py) on the CPU, as notebooks/mnist_cnn.ipynb
trains it in goaccel: the same network (two 3×3 convolutions, ReLU, max-pool, dropout 0.25, two
linear layers with dropout 0.5, log-softmax), Adadelta lr 1.0 (foreach=True: PyTorch 2's
multi-tensor path, which has no fused form for Adadelta), StepLR γ 0.7, batch 64 in the
training set's order (the example shuffles only on an accelerator), test batch 1000, seed 1.

  mnist_cnn_torch.py MNIST_DIR [EPOCHS] [THREADS]

reads the GoMNIST module's IDX files (torchvision is not needed: ToTensor and Normalize((0.1307,),
(0.3081,)) are written out) and prints, per epoch, one line such as
"torch epoch=1 threads=2 seconds=41.2 steps=938 loss=0.1234 test_loss=0.0512 accuracy=98.31".
The epoch time covers the training loop only (the test pass is timed apart as eval_seconds).
"""
import gzip
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def idx(path, offset):
    with gzip.open(path) as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def load(folder, split):
    prefix = "train" if split == "train" else "t10k"
    x = torch.from_numpy(idx(os.path.join(folder, f"{prefix}-images-idx3-ubyte.gz"), 16).copy())
    x = ((x.float() / 255 - 0.1307) / 0.3081).view(-1, 1, 28, 28)
    y = torch.from_numpy(idx(os.path.join(folder, f"{prefix}-labels-idx1-ubyte.gz"), 8).astype(np.int64))
    return x, y


def main():
    folder = sys.argv[1]
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else torch.get_num_threads()
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    xtr, ytr = load(folder, "train")
    xte, yte = load(folder, "test")
    model = Net()
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0, foreach=True)
    scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(1, epochs + 1):
        model.train()
        t0, steps, loss = time.perf_counter(), 0, None
        for i in range(0, len(ytr), 64):
            data, target = xtr[i:i + 64], ytr[i:i + 64]
            optimizer.zero_grad()
            output = model(data)
            loss = F.nll_loss(output, target)
            loss.backward()
            optimizer.step()
            steps += 1
        seconds = time.perf_counter() - t0
        model.eval()
        t1, test_loss, correct = time.perf_counter(), 0.0, 0
        with torch.no_grad():
            for i in range(0, len(yte), 1000):
                output = model(xte[i:i + 1000])
                test_loss += F.nll_loss(output, yte[i:i + 1000], reduction="sum").item()
                correct += (output.argmax(dim=1) == yte[i:i + 1000]).sum().item()
        scheduler.step()
        print(f"torch epoch={epoch} threads={threads} seconds={seconds:.2f} steps={steps} loss={loss.item():.4f} "
              f"test_loss={test_loss / len(yte):.4f} accuracy={100 * correct / len(yte):.2f} "
              f"eval_seconds={time.perf_counter() - t1:.2f}", flush=True)


if __name__ == "__main__":
    main()
