package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// ErrBadToken is returned to the connecting side when the acceptor refused its token.
var ErrBadToken = errors.New("token rejected")

const nonceLen = 32

// handshakeTimeout bounds how long a silent connection can hold the acceptor.
const handshakeTimeout = 10 * time.Second

func mac(token []byte, purpose string, nonce []byte, rank int32) []byte {
	h := hmac.New(sha256.New, token)
	h.Write([]byte(purpose))
	h.Write(nonce)
	var r [4]byte
	binary.LittleEndian.PutUint32(r[:], uint32(rank))
	h.Write(r[:])
	return h.Sum(nil)
}

// Accept runs the acceptor side on c and returns the rank the peer claimed.
// On failure the caller should close c.
func Accept(c net.Conn, token []byte, purpose string) (int, error) {
	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	nonce := make([]byte, nonceLen)
	if _, err := rand.Read(nonce); err != nil {
		return 0, fmt.Errorf("nonce: %w", err)
	}
	if _, err := c.Write(nonce); err != nil {
		return 0, fmt.Errorf("send nonce: %w", err)
	}
	var msg [4 + sha256.Size]byte
	if _, err := io.ReadFull(c, msg[:]); err != nil {
		return 0, fmt.Errorf("read answer from %s: %w", c.RemoteAddr(), err)
	}
	rank := int32(binary.LittleEndian.Uint32(msg[:4]))
	if !hmac.Equal(msg[4:], mac(token, purpose, nonce, rank)) {
		_, _ = c.Write([]byte{0})
		return 0, fmt.Errorf("connection from %s: %w", c.RemoteAddr(), ErrBadToken)
	}
	if _, err := c.Write([]byte{1}); err != nil {
		return 0, fmt.Errorf("confirm: %w", err)
	}
	return int(rank), nil
}

// Connect runs the connecting side on c, claiming rank.
func Connect(c net.Conn, token []byte, purpose string, rank int) error {
	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.SetDeadline(time.Time{})
	nonce := make([]byte, nonceLen)
	if _, err := io.ReadFull(c, nonce); err != nil {
		return fmt.Errorf("read nonce from %s: %w", c.RemoteAddr(), err)
	}
	msg := make([]byte, 4, 4+sha256.Size)
	binary.LittleEndian.PutUint32(msg, uint32(int32(rank)))
	msg = append(msg, mac(token, purpose, nonce, int32(rank))...)
	if _, err := c.Write(msg); err != nil {
		return fmt.Errorf("send answer: %w", err)
	}
	var ok [1]byte
	if _, err := io.ReadFull(c, ok[:]); err != nil || ok[0] != 1 {
		return fmt.Errorf("%s: %w", c.RemoteAddr(), ErrBadToken)
	}
	return nil
}
