#!/usr/bin/env bash
# genproto.sh (make proto): generates the Go types of TensorBoard's messages (tbpb: Event,
# Summary, TensorProto, TextPluginData …; hparamspb: the HParams plugin's) from the .proto files
# in proto/, which are TensorBoard's own (Apache-2.0, proto/LICENSE; proto/README.md says from
# which commit). Needs protoc with the well-known types (Debian: protobuf-compiler
# libprotobuf-dev); protoc-gen-go is built from the google.golang.org/protobuf version of go.mod.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
mod=github.com/goaccel/goaccel/accelerate/internal/tensorboard
core=(compat/proto/event compat/proto/summary compat/proto/histogram compat/proto/tensor
	compat/proto/tensor_shape compat/proto/types compat/proto/resource_handle plugins/text/plugin_data)
hparams=(plugins/hparams/api plugins/hparams/plugin_data)
opts=()
files=()
for f in "${core[@]}"; do
	opts+=("--go_opt=Mtensorboard/$f.proto=$mod/tbpb;tbpb")
	files+=("tensorboard/$f.proto")
done
for f in "${hparams[@]}"; do
	opts+=("--go_opt=Mtensorboard/$f.proto=$mod/hparamspb;hparamspb")
	files+=("tensorboard/$f.proto")
done
include=/usr/include
[ -f "$include/google/protobuf/struct.proto" ] || { echo "genproto.sh: no google/protobuf/struct.proto under $include (install libprotobuf-dev)" >&2; exit 1; }
rm -rf tbpb hparamspb
protoc --plugin=protoc-gen-go="$tmp/protoc-gen-go" -I proto -I "$include" \
	--go_out="$tmp" --go_opt=module=$mod "${opts[@]}" "${files[@]}"
mv "$tmp/tbpb" "$tmp/hparamspb" .
