// Package wire encodes and decodes Jupyter messages as ZeroMQ multipart frames
// (messaging spec 5.3) and signs them with HMAC-SHA256.
//
// A message on the wire is: zero or more routing identities, the delimiter
// "<IDS|MSG>", the hex HMAC signature, then the JSON header, parent header,
// metadata and content, then optional binary buffers.
//
//	codec := wire.NewCodec([]byte(key))
//	msg, err := codec.Decode(frames) // verifies the signature in constant time
//	reply, err := wire.NewReply(msg, "kernel_info_reply", session, content)
//	frames, err = codec.Encode(reply)
//
// Files:
//   - codec.go: Codec (NewCodec, Sign, Encode, Decode), the delimiter and
//     the errors for malformed or forged frames.
//   - message.go: Header, Message, ProtocolVersion, header dates (Now) and
//     NewHeader, NewMessage and NewReply.
package wire
