package wire_test

import (
	"fmt"

	"github.com/goaccel/goaccel/kernel/wire"
)

func ExampleCodec() {
	codec := wire.NewCodec([]byte("secret"))
	req, _ := wire.NewMessage("kernel_info_request", "client-session", nil, map[string]any{})
	req.Identities = [][]byte{[]byte("client")}
	frames, _ := codec.Encode(req) // identity, <IDS|MSG>, signature, header, parent, metadata, content
	got, err := codec.Decode(frames)
	fmt.Println(len(frames), got.Header.MsgType, string(got.Identities[0]), err)

	frames[2] = []byte("forged")
	_, err = codec.Decode(frames)
	fmt.Println(err)
	// Output:
	// 7 kernel_info_request client <nil>
	// bad or missing HMAC signature
}
