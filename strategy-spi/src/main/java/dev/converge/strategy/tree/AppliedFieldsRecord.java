package dev.converge.strategy.tree;

import dev.converge.schema.FieldSet;
import dev.converge.schema.Json;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The record of the fields a strategy wrote last time, kept in an annotation of the object so that
 * a field dropped from desired can be removed on the next apply. It holds paths, never values (no
 * Secret data in metadata), and is bounded: over {@link #COMPRESS_ABOVE} characters it is
 * gzip-compressed, and a record still longer than {@link #MAX_LENGTH} is made coarser — the maps
 * with the most keys are recorded as "every key of this map was written by this controller" — so it
 * never pushes an object over the API server's 256 KiB limit on annotations.
 */
public final class AppliedFieldsRecord {

  private static final KubernetesSerialization JSON = Json.serialization();

  /** The annotation both record-keeping strategies use, so switching between them keeps it. */
  public static final String ANNOTATION = "converge.dev/applied-fields";

  /** Records longer than this are compressed. */
  public static final int COMPRESS_ABOVE = 2048;

  /** The longest record written, in characters. */
  public static final int MAX_LENGTH = 32 * 1024;

  private static final String GZIP_PREFIX = "gz:";

  /**
   * Decoded records by their text: a steady-state apply reads the same annotation again and again.
   * Both caches hold interned sets: records of objects from one builder differ in a few paths (the
   * owner's uid), and share the rest.
   */
  private static final int CACHED_RECORDS = 1024;

  private static final Map<String, FieldSet> DECODED =
      java.util.Collections.synchronizedMap(
          new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, FieldSet> eldest) {
              return size() > CACHED_RECORDS;
            }
          });

  private static final Map<FieldSet, String> ENCODED =
      java.util.Collections.synchronizedMap(
          new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<FieldSet, String> eldest) {
              return size() > CACHED_RECORDS;
            }
          });

  private AppliedFieldsRecord() {}

  /**
   * The annotation value for {@code fields}, at most {@link #MAX_LENGTH} characters. A coarsened
   * record still holds every path of {@code fields} (it may claim more), so no field the strategy
   * wrote is forgotten.
   *
   * @param fields the fields the strategy writes now
   * @return the paths as JSON in the form of managedFields, or beyond {@link #COMPRESS_ABOVE}
   *     characters that JSON gzip-compressed and Base64-encoded behind a {@code gz:} prefix
   */
  public static String encode(FieldSet fields) {
    String known = ENCODED.get(fields);
    if (known != null) {
      return known;
    }
    String text = encodeBounded(fields);
    ENCODED.put(fields.interned(), text);
    return text;
  }

  private static String encodeBounded(FieldSet fields) {
    String text = encodeExact(fields);
    FieldSet current = fields;
    while (text.length() > MAX_LENGTH) {
      int nodes = current.size();
      FieldSet coarser = current.coarsened(Math.max(1, nodes / 2));
      if (coarser.size() >= nodes) {
        break;
      }
      current = coarser;
      text = encodeExact(current);
    }
    return text;
  }

  private static String encodeExact(FieldSet fields) {
    String json = JSON.asJson(fields.toFieldsV1());
    if (json.length() <= COMPRESS_ABOVE) {
      return json;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
      gzip.write(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return GZIP_PREFIX + Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  /**
   * The field set of an annotation value; empty for a missing or blank one.
   *
   * @param annotation the value of {@link #ANNOTATION} on the live object, or null
   * @return the fields recorded, {@linkplain FieldSet#interned() interned}
   * @throws IllegalArgumentException when the value is not a record (someone edited it by hand)
   */
  public static FieldSet decode(String annotation) {
    if (annotation == null || annotation.isBlank()) {
      return FieldSet.empty();
    }
    FieldSet known = DECODED.get(annotation);
    if (known != null) {
      return known;
    }
    FieldSet read = decodeUncached(annotation).interned();
    DECODED.put(annotation, read);
    return read;
  }

  private static FieldSet decodeUncached(String annotation) {
    String json = annotation;
    if (annotation.startsWith(GZIP_PREFIX)) {
      try (GZIPInputStream gzip =
          new GZIPInputStream(
              new ByteArrayInputStream(
                  Base64.getDecoder().decode(annotation.substring(GZIP_PREFIX.length()))))) {
        json = new String(gzip.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("not a compressed field record: " + e.getMessage(), e);
      }
    }
    Map<?, ?> tree;
    try {
      if (!json.strip().startsWith("{")) {
        throw new IllegalArgumentException("not a JSON object");
      }
      tree = JSON.unmarshal(json, Map.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a JSON field record: " + e.getMessage(), e);
    }
    return FieldSet.fromFieldsV1(isPathForm(tree) ? tree : fromKeySkeleton(tree));
  }

  private static boolean isPathForm(Map<?, ?> tree) {
    return tree.keySet().stream()
        .allMatch(
            k -> {
              String s = String.valueOf(k);
              return s.equals(".") || s.equals("*") || (s.length() > 1 && s.charAt(1) == ':');
            });
  }

  /** Records of earlier versions held only map keys, with {@code 1} for any other value. */
  private static Map<String, Object> fromKeySkeleton(Map<?, ?> skeleton) {
    Map<String, Object> out = new LinkedHashMap<>();
    skeleton.forEach(
        (k, v) -> out.put("f:" + k, v instanceof Map<?, ?> m ? fromKeySkeleton(m) : Map.of()));
    return out;
  }
}
