package datasets

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Encoding says how the readers treat text that is not valid UTF-8.
type Encoding int

const (
	// UTF8OrWindows1252 (the default) reads text as UTF-8 and a line (a Parquet value) that is
	// not valid UTF-8 as Windows-1252, the Latin-1 superset older English corpora use ("£" is
	// the byte 0xA3). A line that decodes to neither (a NUL byte, a byte Windows-1252 leaves
	// undefined, control characters other than tab, form feed, vertical tab, carriage return and
	// newline) is an error: the file is binary, not text.
	UTF8OrWindows1252 Encoding = iota
	// StrictUTF8 makes any invalid UTF-8 an error naming the file, line and byte, as datasets'
	// readers raise UnicodeDecodeError.
	StrictUTF8
)

// textError is a decoding failure at a 1-based line (0 when the input has no lines: a Parquet
// value).
type textError struct {
	line int
	msg  string
}

func (e *textError) Error() string {
	if e.line == 0 {
		return e.msg
	}
	return fmt.Sprintf("line %d: %s", e.line, e.msg)
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decodeText returns the text of a whole file (a BOM dropped), each line decoded as enc says,
// and how many lines were read as Windows-1252.
func decodeText(b []byte, enc Encoding) (text string, latin1Lines int, err error) {
	b = bytes.TrimPrefix(b, utf8BOM)
	if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) || bytes.HasPrefix(b, []byte{0xFE, 0xFF}) {
		return "", 0, &textError{line: 1, msg: "UTF-16 text (it starts with a UTF-16 byte order mark); convert the file to UTF-8"}
	}
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return string(b), 0, nil
	}
	var out strings.Builder
	out.Grow(len(b) + len(b)/8)
	for lineNo := 1; len(b) > 0; lineNo++ {
		end := bytes.IndexByte(b, '\n') + 1
		if end == 0 {
			end = len(b)
		}
		s, latin1, err := decodeLine(b[:end], enc)
		if err != nil {
			return "", 0, &textError{line: lineNo, msg: err.Error()}
		}
		if latin1 {
			latin1Lines++
		}
		out.WriteString(s)
		b = b[end:]
	}
	return out.String(), latin1Lines, nil
}

// decodeLine decodes one line (or value) and reports whether it was read as Windows-1252.
func decodeLine(b []byte, enc Encoding) (s string, latin1 bool, err error) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return "", false, fmt.Errorf("a NUL byte at byte %d: this is binary data, not text", i+1)
	}
	if utf8.Valid(b) {
		return string(b), false, nil
	}
	bad := firstInvalidUTF8(b)
	if enc == StrictUTF8 {
		return "", false, fmt.Errorf("invalid UTF-8 (byte 0x%02X at byte %d); with Encoding UTF8OrWindows1252 such a line is read as Windows-1252", b[bad], bad+1)
	}
	for i, c := range b {
		switch {
		case c == 0x81 || c == 0x8D || c == 0x8F || c == 0x90 || c == 0x9D:
			return "", false, fmt.Errorf("neither UTF-8 nor Windows-1252 text: byte 0x%02X at byte %d is undefined in Windows-1252 (binary data?)", c, i+1)
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v':
			return "", false, fmt.Errorf("neither UTF-8 nor Windows-1252 text: control byte 0x%02X at byte %d (binary data?)", c, i+1)
		}
	}
	d, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil {
		return "", false, fmt.Errorf("decode as Windows-1252: %w", err)
	}
	return string(d), true, nil
}

// decodeValue decodes a string value of a binary format (Parquet), which has no lines.
func decodeValue(s string, enc Encoding) (string, error) {
	if utf8.ValidString(s) {
		return s, nil
	}
	d, _, err := decodeLine([]byte(s), enc)
	return d, err
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return 0
}
