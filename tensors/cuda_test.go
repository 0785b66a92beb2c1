package tensors

// The op suite runs on every device this machine has (devices_test.go): the
// CUDA device registers itself when its package is imported.
import _ "github.com/goaccel/goaccel/cuda"
