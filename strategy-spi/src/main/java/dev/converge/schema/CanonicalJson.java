package dev.converge.schema;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON text with object keys sorted and numbers written by value ({@code 80} and {@code 80.0} are
 * both {@code 80}), so equal values give equal text: path elements and record keys compare as
 * strings.
 */
final class CanonicalJson {

  private static final KubernetesSerialization JSON = Json.serialization();

  private CanonicalJson() {}

  static String of(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  static Object parse(String json) {
    // Inside an array, so that a scalar is read as JSON too (unmarshal reads text that does not
    // start with '[' or '{' as YAML).
    return JSON.unmarshal("[" + json + "]", List.class).get(0);
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted(map).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(JSON.asJson(e.getKey())).append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else if (value instanceof Number n) {
      out.append(number(n));
    } else if (value instanceof Boolean b) {
      out.append(b);
    } else {
      out.append(JSON.asJson(String.valueOf(value)));
    }
  }

  static String number(Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return n.toString();
    }
    try {
      BigDecimal d = new BigDecimal(n.toString()).stripTrailingZeros();
      return d.scale() <= 0 ? d.toBigInteger().toString() : d.toPlainString();
    } catch (NumberFormatException e) {
      return n.toString();
    }
  }

  private static Map<String, Object> sorted(Map<?, ?> map) {
    Map<String, Object> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }
}
