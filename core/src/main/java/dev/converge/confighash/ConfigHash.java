package dev.converge.confighash;

import dev.converge.retry.internal.ResourceText;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hash of the content of ConfigMaps and Secrets that a pod template refers to. Put it in a
 * pod-template annotation: when the content changes, the template changes and the workload rolls
 * its pods; when it does not, nothing is written.
 *
 * <p>Only content counts: {@code data} and {@code binaryData} of a ConfigMap, {@code data} (and
 * {@code stringData} of an object built in memory) of a Secret, each in sorted key order, so the
 * same content gives the same hash in every process and after every restart. Metadata does not
 * count: mixing in {@code resourceVersion} would roll the pods on every label edit, and after a
 * backup restore for nothing. Keys and values are length-prefixed, so {@code a=bc} and {@code ab=c}
 * differ; base64 values are hashed decoded, so two encodings of the same bytes agree. SHA-256, of
 * which {@value #LENGTH} hex digits are kept.
 */
public final class ConfigHash {

  /** Hex digits kept: 64 bits, plenty to tell one version of the content from another. */
  public static final int LENGTH = 16;

  private ConfigHash() {}

  /**
   * The hash of a ConfigMap's {@code data} and {@code binaryData}.
   *
   * @param configMap the ConfigMap, as read or as built in memory
   * @return {@value #LENGTH} lower-case hex digits
   */
  public static String of(ConfigMap configMap) {
    return of(configMap.getData(), configMap.getBinaryData());
  }

  /**
   * The hash of ConfigMap content given as its two maps ({@code binaryData} base64 encoded): the
   * same as {@link #of(ConfigMap)} of a ConfigMap with that content, so an operator can hash the
   * content it is about to write before the object exists.
   *
   * @param data the text entries; null for none
   * @param binaryData the binary entries, base64 encoded; null for none
   * @return {@value #LENGTH} lower-case hex digits
   */
  public static String of(Map<String, String> data, Map<String, String> binaryData) {
    MessageDigest sha = sha256();
    configMapContent(sha, data, binaryData);
    return hex(sha);
  }

  /**
   * The hash of a Secret's content: {@code data}, with {@code stringData} merged over it as the API
   * server would.
   *
   * @param secret the Secret, as read or as built in memory
   * @return {@value #LENGTH} lower-case hex digits
   */
  public static String of(Secret secret) {
    MessageDigest sha = sha256();
    secretContent(sha, secret);
    return hex(sha);
  }

  /**
   * One hash of several ConfigMaps and Secrets, independent of their order: for a pod that mounts
   * more than one. Each object's kind and name count too, so moving a key from one to another
   * changes the hash.
   *
   * @param sources the ConfigMaps and Secrets, in any order
   * @return {@value #LENGTH} lower-case hex digits
   * @throws IllegalArgumentException for an object that is neither a ConfigMap nor a Secret
   */
  public static String of(Collection<? extends HasMetadata> sources) {
    List<HasMetadata> sorted = new ArrayList<>(sources);
    sorted.sort(
        Comparator.comparing((HasMetadata o) -> o.getClass().getSimpleName())
            .thenComparing(o -> String.valueOf(o.getMetadata().getNamespace()))
            .thenComparing(o -> o.getMetadata().getName()));
    MessageDigest sha = sha256();
    sha.update((byte) 'm');
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(sorted.size()).array());
    for (HasMetadata source : sorted) {
      field(sha, source.getMetadata().getName().getBytes(StandardCharsets.UTF_8));
      if (source instanceof ConfigMap configMap) {
        sha.update((byte) 'C');
        configMapContent(sha, configMap.getData(), configMap.getBinaryData());
      } else if (source instanceof Secret secret) {
        sha.update((byte) 'S');
        secretContent(sha, secret);
      } else {
        throw new IllegalArgumentException(
            "ConfigHash covers ConfigMaps and Secrets; "
                + ResourceText.describe(source)
                + " is neither");
      }
    }
    return hex(sha);
  }

  private static void configMapContent(
      MessageDigest sha, Map<String, String> data, Map<String, String> binaryData) {
    section(sha, 'd', data, false);
    section(sha, 'b', binaryData, true);
  }

  private static void secretContent(MessageDigest sha, Secret secret) {
    // The API server merges stringData into data (stringData wins) and never returns it; an object
    // built in memory may still carry it, and must hash like the stored one.
    Map<String, byte[]> content = new TreeMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> content.put(k, v == null ? new byte[0] : decode(v)));
    }
    if (secret.getStringData() != null) {
      secret
          .getStringData()
          .forEach(
              (k, v) ->
                  content.put(k, v == null ? new byte[0] : v.getBytes(StandardCharsets.UTF_8)));
    }
    sha.update((byte) 's');
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(content.size()).array());
    content.forEach(
        (key, value) -> {
          field(sha, key.getBytes(StandardCharsets.UTF_8));
          field(sha, value);
        });
  }

  private static void section(
      MessageDigest sha, char tag, Map<String, String> entries, boolean base64) {
    Map<String, String> sorted = entries == null ? Map.of() : new TreeMap<>(entries);
    sha.update((byte) tag);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(sorted.size()).array());
    sorted.forEach(
        (key, value) -> {
          field(sha, key.getBytes(StandardCharsets.UTF_8));
          field(
              sha,
              value == null
                  ? new byte[0]
                  : base64 ? decode(value) : value.getBytes(StandardCharsets.UTF_8));
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
      // The API server stores only valid base64; an object built in memory may hold raw text.
      // Hash what is there rather than fail: the hash still changes whenever the text does.
      return value.getBytes(StandardCharsets.UTF_8);
    }
  }

  private static String hex(MessageDigest sha) {
    return HexFormat.of().formatHex(sha.digest()).substring(0, LENGTH);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}
