package dev.converge.webhooks.internal;

import dev.converge.webhooks.ConversionWebhook;
import dev.converge.webhooks.Converter;
import dev.converge.webhooks.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Answers a {@code ConversionReview} v1 for one custom resource. */
public final class ConversionEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(ConversionEndpoint.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The API server waits 30 s for a conversion webhook; answer well before. */
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  private final List<ConversionWebhook> hooks;
  private final KubernetesSerialization serialization;
  private final HandlerCalls calls;
  private final WebhookMetrics metrics;

  public ConversionEndpoint(
      List<ConversionWebhook> hooks,
      KubernetesSerialization serialization,
      HandlerCalls calls,
      WebhookMetrics metrics) {
    this.hooks = List.copyOf(hooks);
    this.serialization = serialization;
    this.calls = calls;
    this.metrics = metrics;
  }

  public ObjectNode answer(JsonNode review) {
    long start = System.nanoTime();
    JsonNode request = review.path("request");
    ObjectNode response = NODES.objectNode().put("uid", request.path("uid").asString(""));
    String desired = request.path("desiredAPIVersion").asString("");
    String kind = hooks.get(0).first().kind();
    String outcome = "converted";
    try {
      ArrayNode converted = NODES.arrayNode();
      for (JsonNode object : request.path("objects")) {
        converted.add(convert(object, desired));
      }
      response.set("convertedObjects", converted);
      response.putObject("result").put("status", "Success");
    } catch (ConversionFailure e) {
      outcome = "error";
      LOG.warn("Conversion to {} failed: {}", desired, e.getMessage(), e.getCause());
      response.putArray("convertedObjects");
      ObjectNode result = response.putObject("result");
      result.put("status", "Failure");
      result.put("message", e.getMessage());
    }
    metrics.record("convert", kind, outcome, Duration.ofNanos(System.nanoTime() - start));
    ObjectNode out = NODES.objectNode();
    out.put("apiVersion", "apiextensions.k8s.io/v1");
    out.put("kind", "ConversionReview");
    out.set("response", response);
    return out;
  }

  private JsonNode convert(JsonNode object, String desired) throws ConversionFailure {
    String from = object.path("apiVersion").asString("");
    String describe =
        object.path("kind").asString("object")
            + " "
            + object.path("metadata").path("namespace").asString("")
            + "/"
            + object.path("metadata").path("name").asString("");
    if (from.equals(desired)) {
      return object;
    }
    for (ConversionWebhook hook : hooks) {
      boolean forward =
          hook.first().apiVersion().equals(from) && hook.second().apiVersion().equals(desired);
      boolean backward =
          hook.second().apiVersion().equals(from) && hook.first().apiVersion().equals(desired);
      if (forward || backward) {
        return convert(object, hook, forward, describe);
      }
    }
    throw new ConversionFailure(
        describe + ": no converter from " + from + " to " + desired + " is registered", null);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private JsonNode convert(
      JsonNode object, ConversionWebhook hook, boolean forward, String describe)
      throws ConversionFailure {
    ResourceType source = forward ? hook.first() : hook.second();
    ResourceType target = forward ? hook.second() : hook.first();
    HasMetadata typed;
    try {
      typed = serialization.convertValue(object, source.type());
    } catch (RuntimeException e) {
      throw new ConversionFailure(
          describe + ": cannot read it as " + source.type().getSimpleName() + ": " + e.getMessage(),
          e);
    }
    Converter converter = hook.converter();
    HasMetadata result;
    try {
      result =
          calls.call(
              () -> forward ? converter.convert(typed) : converter.convertBack(typed), DEADLINE);
    } catch (HandlerCalls.HandlerFailure e) {
      throw new ConversionFailure(
          describe
              + ": converting "
              + source.apiVersion()
              + " to "
              + target.apiVersion()
              + " failed: "
              + e.getMessage(),
          e.getCause());
    }
    if (result == null) {
      throw new ConversionFailure(
          describe + ": the converter to " + target.apiVersion() + " returned null", null);
    }
    ObjectNode out = (ObjectNode) serialization.convertValue(result, JsonNode.class);
    out.put("apiVersion", target.apiVersion());
    out.put("kind", object.path("kind").asString(target.kind()));
    // The API server refuses any change of metadata but labels and annotations.
    ObjectNode metadata = ((ObjectNode) object.path("metadata")).deepCopy();
    JsonNode resultMetadata = out.path("metadata");
    for (String field : List.of("labels", "annotations")) {
      JsonNode value = resultMetadata.path(field);
      if (value.isObject() && !value.isEmpty()) {
        metadata.set(field, value);
      } else {
        metadata.remove(field);
      }
    }
    out.set("metadata", metadata);
    return out;
  }

  private static final class ConversionFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ConversionFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
