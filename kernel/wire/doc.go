// Package wire encodes and decodes Jupyter messages as ZeroMQ multipart frames
// (messaging spec 5.3) and signs them with HMAC-SHA256.
//
// A message on the wire is: zero or more routing identities, the delimiter
// "<IDS|MSG>", the hex HMAC signature, then the JSON header, parent header,
// metadata and content, then optional binary buffers.
//
//	codec := wire.NewCodec([]byte(key))
//	msg, err := codec.Decode(frames) // verifies the signature in constant time
//	reply := wire.NewReply(msg, "kernel_info_reply", content)
//	frames, err = codec.Encode(reply)
package wire
