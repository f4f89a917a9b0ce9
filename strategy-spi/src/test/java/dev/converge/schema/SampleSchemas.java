package dev.converge.schema;

import dev.converge.schema.internal.OpenApiDocument;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A small OpenAPI v3 document in the API server's form, with the shapes the semantics depend on.
 */
final class SampleSchemas {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  static final OpenApiDocument DOCUMENT = load();
  static final SchemaNode CONFIG_MAP = DOCUMENT.kind("", "v1", "ConfigMap").orElseThrow();
  static final SchemaNode POD = DOCUMENT.kind("", "v1", "Pod").orElseThrow();
  static final SchemaNode DEPLOYMENT = DOCUMENT.kind("apps", "v1", "Deployment").orElseThrow();
  static final SchemaNode GADGET = DOCUMENT.kind("test.converge.dev", "v1", "Gadget").orElseThrow();

  private SampleSchemas() {}

  @SuppressWarnings("unchecked")
  private static OpenApiDocument load() {
    try (InputStream in = SampleSchemas.class.getResourceAsStream("/openapi/sample-v1.json")) {
      return OpenApiDocument.of(JSON.unmarshal(in, Map.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a JSON object written with single quotes. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> json(String text) {
    return JSON.unmarshal(text.replace('\'', '"'), Map.class);
  }
}
