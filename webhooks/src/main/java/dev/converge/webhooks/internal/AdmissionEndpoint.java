package dev.converge.webhooks.internal;

import dev.converge.webhooks.Admission;
import dev.converge.webhooks.AdmissionWebhook;
import dev.converge.webhooks.Defaulter;
import dev.converge.webhooks.Operation;
import dev.converge.webhooks.Validator;
import dev.converge.webhooks.Verdict;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Answers an {@code AdmissionReview} v1 for one validating or mutating webhook. */
public final class AdmissionEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionEndpoint.class);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final EnumSet<DiffFlags> PATCH_FLAGS =
      EnumSet.of(
          DiffFlags.OMIT_VALUE_ON_REMOVE,
          DiffFlags.OMIT_MOVE_OPERATION,
          DiffFlags.OMIT_COPY_OPERATION);

  private final AdmissionWebhook hook;
  private final KubernetesSerialization serialization;
  private final HandlerCalls calls;
  private final WebhookMetrics metrics;
  private final Duration deadline;

  public AdmissionEndpoint(
      AdmissionWebhook hook,
      KubernetesSerialization serialization,
      HandlerCalls calls,
      WebhookMetrics metrics) {
    this.hook = hook;
    this.serialization = serialization;
    this.calls = calls;
    this.metrics = metrics;
    // The handler gets most of the API server's timeout, so its answer (even "too slow") arrives
    // before the server gives up on the call.
    long millis = hook.options().timeoutSeconds() * 1000L;
    this.deadline = Duration.ofMillis(Math.max(200, millis - Math.min(1000, millis / 4)));
  }

  /** The review to send back for {@code review}; never throws for a well-formed review. */
  public ObjectNode answer(JsonNode review) {
    long start = System.nanoTime();
    JsonNode request = review.path("request");
    String uid = request.path("uid").asString("");
    ObjectNode response = NODES.objectNode().put("uid", uid);
    String kind = hook.resource().kind();
    String webhook = hook.mutating() ? "mutate" : "validate";
    String outcome;
    String describe = kind + " " + describe(request);
    try {
      Admission<HasMetadata> admission = admission(request);
      describe = admission.describe();
      if (hook.mutating()) {
        outcome = mutate(admission, request, response, describe);
      } else {
        outcome = validate(admission, response, describe);
      }
    } catch (HandlerCalls.HandlerFailure e) {
      outcome = "error";
      LOG.warn(
          "{} {}: the {} webhook {} failed: {}",
          describe,
          request.path("operation").asString(""),
          webhook,
          hook.name(),
          e.getMessage(),
          e.getCause());
      deny(
          response,
          500,
          "InternalError",
          "",
          describe
              + ": the "
              + (hook.mutating() ? "defaulting" : "validating")
              + " webhook failed: "
              + e.getMessage());
    } catch (RuntimeException e) {
      outcome = "error";
      LOG.warn("{}: cannot handle the admission request: {}", describe, e.toString(), e);
      deny(
          response,
          400,
          "BadRequest",
          "",
          describe + ": the webhook cannot read the request: " + e);
    }
    metrics.record(webhook, kind, outcome, Duration.ofNanos(System.nanoTime() - start));
    ObjectNode out = NODES.objectNode();
    out.put("apiVersion", "admission.k8s.io/v1");
    out.put("kind", "AdmissionReview");
    out.set("response", response);
    return out;
  }

  private String validate(Admission<HasMetadata> admission, ObjectNode response, String describe)
      throws HandlerCalls.HandlerFailure {
    @SuppressWarnings("unchecked")
    Validator<HasMetadata> validator = (Validator<HasMetadata>) hook.handler();
    Verdict verdict = calls.call(() -> validator.validate(admission), deadline);
    if (verdict == null) {
      throw new HandlerCalls.HandlerFailure(
          "the validator returned null instead of a Verdict", null);
    }
    warnings(response, verdict.warnings());
    if (verdict.allowed()) {
      response.put("allowed", true);
      LOG.debug("{} {} allowed by {}", describe, admission.operation(), hook.name());
      return "allowed";
    }
    String message =
        describe
            + ": "
            + (verdict.field().isEmpty() ? "" : verdict.field() + ": ")
            + verdict.reason();
    deny(response, 403, "Forbidden", verdict.field(), message);
    metrics.denied(hook.resource().kind(), verdict.field());
    LOG.info(
        "{} {} by {} denied: {}", describe, admission.operation(), admission.username(), message);
    return "denied";
  }

  private String mutate(
      Admission<HasMetadata> admission, JsonNode request, ObjectNode response, String describe)
      throws HandlerCalls.HandlerFailure {
    @SuppressWarnings("unchecked")
    Defaulter<HasMetadata> defaulter = (Defaulter<HasMetadata>) hook.handler();
    HasMetadata object = admission.object();
    // The patch is the difference between the typed object before and after the defaulter, so
    // fields the Java type does not know are neither removed nor rewritten.
    JsonNode before = serialization.convertValue(object, JsonNode.class);
    calls.call(
        () -> {
          defaulter.setDefaults(object, admission);
          return Boolean.TRUE;
        },
        deadline);
    JsonNode after = serialization.convertValue(object, JsonNode.class);
    JsonNode patch = JsonDiff.asJson(before, after, PATCH_FLAGS);
    response.put("allowed", true);
    if (patch.isEmpty()) {
      return "allowed";
    }
    try {
      JsonPatch.apply(patch, request.path("object"));
    } catch (RuntimeException e) {
      throw new HandlerCalls.HandlerFailure(
          "its change cannot be applied to the object as sent (" + e.getMessage() + ")", e);
    }
    response.put("patchType", "JSONPatch");
    response.put(
        "patch",
        Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
    LOG.info("{} {} defaulted by {}: {}", describe, admission.operation(), hook.name(), patch);
    return "patched";
  }

  private Admission<HasMetadata> admission(JsonNode request) {
    Operation operation = Operation.valueOf(request.path("operation").asString("CREATE"));
    JsonNode objectNode = request.path("object");
    JsonNode oldNode = request.path("oldObject");
    @SuppressWarnings("unchecked")
    Class<HasMetadata> type = (Class<HasMetadata>) hook.resource().type();
    HasMetadata object =
        objectNode.isObject()
            ? serialization.convertValue(objectNode, type)
            : serialization.convertValue(oldNode, type);
    Optional<HasMetadata> old =
        oldNode.isObject()
            ? Optional.of(serialization.convertValue(oldNode, type))
            : Optional.empty();
    String name = request.path("name").asString("");
    if (name.isEmpty() && object.getMetadata() != null && object.getMetadata().getName() != null) {
      name = object.getMetadata().getName();
    }
    return new Admission<>(
        operation,
        object,
        old,
        request.path("namespace").asString(""),
        name,
        request.path("userInfo").path("username").asString(""),
        request.path("dryRun").asBoolean(false));
  }

  private static String describe(JsonNode request) {
    String namespace = request.path("namespace").asString("");
    String name = request.path("name").asString("");
    return (namespace.isEmpty() ? "" : namespace + "/") + (name.isEmpty() ? "(unnamed)" : name);
  }

  private static void warnings(ObjectNode response, List<String> warnings) {
    if (!warnings.isEmpty()) {
      ArrayNode array = response.putArray("warnings");
      warnings.forEach(array::add);
    }
  }

  private static void deny(
      ObjectNode response, int code, String reason, String field, String message) {
    response.put("allowed", false);
    ObjectNode status = response.putObject("status");
    status.put("code", code);
    status.put("reason", reason);
    status.put("message", message);
    if (!field.isEmpty()) {
      ObjectNode cause = status.putObject("details").putArray("causes").addObject();
      cause.put("reason", "FieldValueInvalid");
      cause.put("field", field);
      cause.put("message", message);
    }
  }
}
