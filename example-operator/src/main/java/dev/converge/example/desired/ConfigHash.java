package dev.converge.example.desired;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hash of a ConfigMap's content that goes into the pod template, so that a content change
 * changes the template and the Deployment rolls its pods.
 *
 * <p>It covers {@code data} and {@code binaryData} and nothing else, each in sorted key order, so
 * the same content always gives the same hash. (Hashing a map in iteration order gives a different
 * value for the same content from run to run, which would roll the pods for nothing; mixing in
 * {@code metadata.resourceVersion} rolls them on every label or annotation edit, and on nothing at
 * all after a backup restore.) Every key and value is length-prefixed, so {@code a=bc} and
 * {@code ab=c} differ, and a section tag keeps a {@code data} key apart from a {@code binaryData}
 * key of the same name.
 */
public final class ConfigHash {

  /** Hex digits kept: 64 bits, plenty to tell one version of a ConfigMap from another. */
  public static final int LENGTH = 16;

  private ConfigHash() {}

  /** The hash of {@code configMap}'s {@code data} and {@code binaryData}. */
  public static String of(ConfigMap configMap) {
    return of(configMap.getData(), configMap.getBinaryData());
  }

  /**
   * The hash of the given content; {@code binaryData} values are base64 as on the wire and are
   * hashed decoded, so two encodings of the same bytes hash alike.
   */
  public static String of(Map<String, String> data, Map<String, String> binaryData) {
    MessageDigest sha = sha256();
    section(sha, 'd', data, false);
    section(sha, 'b', binaryData, true);
    return HexFormat.of().formatHex(sha.digest()).substring(0, LENGTH);
  }

  private static void section(MessageDigest sha, char tag, Map<String, String> entries,
      boolean base64) {
    Map<String, String> sorted = entries == null ? Map.of() : new TreeMap<>(entries);
    sha.update((byte) tag);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(sorted.size()).array());
    sorted.forEach((key, value) -> {
      field(sha, key.getBytes(StandardCharsets.UTF_8));
      field(sha, value == null ? new byte[0] : base64 ? decode(value) : value.getBytes(StandardCharsets.UTF_8));
    });
  }

  private static void field(MessageDigest sha, byte[] bytes) {
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
    sha.update(bytes);
  }

  private static byte[] decode(String value) {
    try {
      return Base64.getMimeDecoder().decode(value);
    } catch (IllegalArgumentException notBase64) {
      // The API server only stores valid base64; an object built in memory may hold raw text.
      // Hash what is there rather than fail: the hash still changes whenever the text does.
      return value.getBytes(StandardCharsets.UTF_8);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
