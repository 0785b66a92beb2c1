package uprops

// ByteToRune maps every byte to the printable character GPT-2's byte-level
// BPE writes for it (bytes_to_unicode in GPT-2's encoder.py).
var ByteToRune [256]rune

// RuneToByte is the inverse of ByteToRune.
var RuneToByte = map[rune]byte{}

func init() {
	n := 0
	for b := 0; b < 256; b++ {
		printable := (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)
		if printable {
			ByteToRune[b] = rune(b)
		} else {
			ByteToRune[b] = rune(256 + n)
			n++
		}
		RuneToByte[ByteToRune[b]] = byte(b)
	}
}
