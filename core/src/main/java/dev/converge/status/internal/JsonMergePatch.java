package dev.converge.status.internal;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Computes an RFC 7386 JSON merge patch that turns {@code source} into {@code target}.
 *
 * <p>Object members are compared recursively; arrays and scalars are replaced whole (merge patch
 * has no way to address array elements); a member present in the source and absent (or null) in the
 * target becomes {@code null}, which deletes it. Null-valued members count as absent on both sides,
 * so a POJO that serialises its unset fields as {@code null} does not produce a patch against an
 * object whose server copy simply omits them.
 */
public final class JsonMergePatch {

  private JsonMergePatch() {}

  /**
   * The patch from {@code source} to {@code target}; an empty object node when they are equal.
   * Either side may be null or missing, meaning "absent".
   */
  public static JsonNode diff(JsonNode source, JsonNode target) {
    boolean sourceAbsent = absent(source);
    boolean targetAbsent = absent(target);
    if (sourceAbsent && targetAbsent) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (targetAbsent) {
      return JsonNodeFactory.instance.nullNode();
    }
    if (sourceAbsent || !source.isObject() || !target.isObject()) {
      JsonNode cleaned = withoutNulls(target);
      return !sourceAbsent && withoutNulls(source).equals(cleaned)
          ? JsonNodeFactory.instance.objectNode()
          : cleaned;
    }
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> member : source.properties()) {
      if (!absent(member.getValue()) && absent(target.get(member.getKey()))) {
        patch.putNull(member.getKey());
      }
    }
    for (Map.Entry<String, JsonNode> member : target.properties()) {
      JsonNode targetValue = member.getValue();
      if (absent(targetValue)) {
        continue;
      }
      JsonNode sourceValue = source.get(member.getKey());
      if (absent(sourceValue)) {
        patch.set(member.getKey(), withoutNulls(targetValue));
      } else if (sourceValue.isObject() && targetValue.isObject()) {
        JsonNode nested = diff(sourceValue, targetValue);
        if (!isEmpty(nested)) {
          patch.set(member.getKey(), nested);
        }
      } else if (!withoutNulls(sourceValue).equals(withoutNulls(targetValue))) {
        patch.set(member.getKey(), withoutNulls(targetValue));
      }
    }
    return patch;
  }

  /** True for the patch that changes nothing: an empty object. */
  public static boolean isEmpty(JsonNode patch) {
    return patch.isObject() && patch.isEmpty();
  }

  private static boolean absent(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode();
  }

  /** A copy of {@code node} with null-valued object members removed, recursively. */
  static JsonNode withoutNulls(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        if (!absent(member.getValue())) {
          copy.set(member.getKey(), withoutNulls(member.getValue()));
        }
      }
      return copy;
    }
    if (node.isArray()) {
      var copy = JsonNodeFactory.instance.arrayNode();
      for (JsonNode element : node) {
        copy.add(element.isNull() ? element : withoutNulls(element));
      }
      return copy;
    }
    return node;
  }
}
