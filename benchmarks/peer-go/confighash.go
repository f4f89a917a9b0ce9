package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"sort"

	corev1 "k8s.io/api/core/v1"
)

// configHashLength is how many hex digits of the SHA-256 are kept, as the example keeps.
const configHashLength = 16

// configHash is the content hash of a ConfigMap that the pod template carries in an annotation,
// so that a change of the content rolls the pods. It is the same function as the example's
// (dev.converge.confighash.ConfigHash): data then binaryData, each as a tag byte, a count and
// length-prefixed keys and values in sorted key order, so both operators write the same value for
// the same content.
func configHash(cm *corev1.ConfigMap) string {
	sha := sha256.New()
	data := make(map[string][]byte, len(cm.Data))
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	section(sha, 'd', data)
	section(sha, 'b', cm.BinaryData) // the client has decoded binaryData's base64 already
	return hex.EncodeToString(sha.Sum(nil))[:configHashLength]
}

func section(sha hash.Hash, tag byte, entries map[string][]byte) {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sha.Write([]byte{tag})
	writeLength(sha, len(keys))
	for _, k := range keys {
		field(sha, []byte(k))
		field(sha, entries[k])
	}
}

func field(sha hash.Hash, b []byte) {
	writeLength(sha, len(b))
	sha.Write(b)
}

func writeLength(sha hash.Hash, n int) {
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], uint32(n))
	sha.Write(buf[:])
}
