package tensorboard

import (
	"encoding/binary"
	"hash/crc32"
)

// castagnoli is CRC-32C's table, TFRecord's checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskedCRC is TFRecord's masked CRC-32C of b: the checksum rotated right by 15 bits plus a
// constant, so that a CRC of data holding CRCs stays well distributed.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}

// appendRecord appends data framed as one TFRecord to dst: its length (uint64, little
// endian), the length's masked CRC, the data, and the data's masked CRC.
func appendRecord(dst, data []byte) []byte {
	var head [12]byte
	binary.LittleEndian.PutUint64(head[:8], uint64(len(data)))
	binary.LittleEndian.PutUint32(head[8:], maskedCRC(head[:8]))
	dst = append(dst, head[:]...)
	dst = append(dst, data...)
	return binary.LittleEndian.AppendUint32(dst, maskedCRC(data))
}
