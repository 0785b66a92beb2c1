// Package transfer copies values between processes by value: the arguments
// a notebook passes to launched workers, rank 0's result coming back, the
// arguments an exported program embeds.
//
// What crosses: booleans, numbers, strings, slices, arrays, maps, structs
// and pointers made of those (a cell's own struct types included, with their
// unexported fields), values whose type implements encoding.BinaryMarshaler
// (time.Time), and *tensors.Tensor. An interface crosses holding one of the
// predeclared types, a slice, array or map of them, or a tensor. What does
// not cross (a channel, a function, an unsafe pointer, an open file, a
// library type with unexported fields) is an *Error naming where it sits,
// found before anything is written.
//
// A message is a safetensors file: the tensors are its tensors, and the
// values' tree is JSON in its metadata. Decoding is driven by the receiving
// type, so a value lands in the receiver's own types (an interpreted struct
// in one process, a compiled one in another) when their fields match by name;
// numbers convert between numeric types when the value fits.
//
//	var b bytes.Buffer
//	err := transfer.Encode(&b, []reflect.Value{reflect.ValueOf(cfg)}, []string{"cfg"})
//	vals, err := transfer.Decode(&b, []reflect.Type{reflect.TypeOf(Config{})}, []string{"cfg"})
//
// Files:
//   - decode.go: Decode, Message (DecodeMessage, Len, Values) for a receiver
//     that chooses its types after counting the values, Marshal and
//     Unmarshal, and the conversion into the receiver's types.
//   - encode.go: Error, Encode and the encoding of each kind of value into
//     the safetensors message.
//   - types.go: CheckType and the rules for what may cross (library structs
//     with unexported fields refused), and the type names that let a value
//     cross inside an interface.
package transfer
