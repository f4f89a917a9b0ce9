package dev.converge.operator.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * What a failed list or watch means for the user: a reason class (for metrics) and an explanation
 * that names the kind, the cause and the fix.
 *
 * @param reason forbidden, not-found, gone, unreadable or other
 * @param explanation one line for logs and health
 */
record InformerFailure(String reason, String explanation) {

  static InformerFailure of(String kind, Class<? extends HasMetadata> type, Throwable error) {
    String plural = HasMetadata.getPlural(type);
    String group = HasMetadata.getGroup(type);
    String resource = plural + (group == null || group.isEmpty() ? "" : "." + group);
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String name = t.getClass().getName();
      if (name.startsWith("tools.jackson.") || name.startsWith("com.fasterxml.jackson.")) {
        return new InformerFailure(
            "unreadable",
            "an object of "
                + kind
                + " does not deserialise"
                + " into "
                + type.getName()
                + ": "
                + firstLine(t.getMessage())
                + ". Fix the object"
                + " (kubectl edit) or make the class accept it; until then no "
                + kind
                + " can be listed");
      }
      if (t instanceof KubernetesClientException kce && kce.getCode() > 0) {
        String status =
            firstLine(
                kce.getStatus() != null && kce.getStatus().getMessage() != null
                    ? kce.getStatus().getMessage()
                    : kce.getMessage());
        return switch (kce.getCode()) {
          case 403 ->
              new InformerFailure(
                  "forbidden",
                  "forbidden (403): "
                      + status
                      + ". Grant the operator's account get, list and watch on "
                      + resource);
          case 404 ->
              new InformerFailure(
                  "not-found",
                  "not found (404): "
                      + status
                      + ". The API"
                      + " server does not serve "
                      + resource
                      + " at "
                      + HasMetadata.getApiVersion(type)
                      + "; install its CustomResourceDefinition (or the API) first");
          case 410 ->
              new InformerFailure(
                  "gone", "the watch expired (410 Gone): " + status + "; listing again");
          default -> new InformerFailure("other", "HTTP " + kce.getCode() + ": " + status);
        };
      }
    }
    return new InformerFailure("other", firstLine(String.valueOf(error)));
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "(no message)";
    }
    int newline = text.indexOf('\n');
    String line = newline < 0 ? text : text.substring(0, newline);
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }
}
