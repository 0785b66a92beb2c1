// Package tensorboard writes TensorBoard event files: TFRecord framing (a length and a data
// record, each followed by its masked CRC-32C) around Event protobufs holding scalar, image and
// text summaries and the HParams plugin's session start, which TensorBoard reads as it reads
// torch.utils.tensorboard's SummaryWriter files. The messages are TensorBoard's own .proto files
// (proto/) compiled by protoc-gen-go (tbpb, hparamspb: make proto runs genproto.sh); this
// package only frames and fills them.
//
//	w, err := tensorboard.Create("logs/mnist")
//	w.Scalar("loss", 0.25, 100, time.Now())
//	w.Close()
//
// Files:
//   - record.go: the TFRecord framing and its masked CRC-32C.
//   - writer.go: Writer: Create, Scalars, Scalar, Image, Text, HParams and Close; each event
//     is written through to the file.
//   - genproto.sh: regenerates tbpb and hparamspb from proto/.
package tensorboard
