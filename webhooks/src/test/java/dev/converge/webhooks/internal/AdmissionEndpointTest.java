package dev.converge.webhooks.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.webhooks.AdmissionWebhook;
import dev.converge.webhooks.ConversionWebhook;
import dev.converge.webhooks.Verdict;
import dev.converge.webhooks.Webhooks;
import dev.converge.webhooks.sample.Gadget;
import dev.converge.webhooks.sample.GadgetConversion;
import dev.converge.webhooks.sample.GadgetSpec;
import dev.converge.webhooks.sample.GadgetV2;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** The review documents the endpoints answer, checked field by field against written JSON. */
class AdmissionEndpointTest {

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private final HandlerCalls calls = new HandlerCalls();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @AfterEach
  void close() {
    calls.close();
  }

  @Test
  void aDefaulterGivesTheSmallestJsonPatchAndKeepsFieldsItsTypeDoesNotKnow() {
    Webhooks webhooks =
        Webhooks.builder()
            .setDefaults(
                Gadget.class,
                (gadget, admission) ->
                    gadget.setSpec(new GadgetSpec("blue", gadget.getSpec().port(), null)))
            .build();
    JsonNode answer =
        endpoint(webhooks.admission().get(0))
            .answer(
                review(
                    """
        {"apiVersion":"samples.webhooks.converge.dev/v1","kind":"Gadget",
         "metadata":{"name":"g","namespace":"ns"},
         "spec":{"port":8080,"futureField":{"a":1}}}"""));

    JsonNode response = answer.path("response");
    assertThat(response.path("uid").asString()).isEqualTo("u-1");
    assertThat(response.path("allowed").asBoolean()).isTrue();
    assertThat(response.path("patchType").asString()).isEqualTo("JSONPatch");
    String patch =
        new String(
            Base64.getDecoder().decode(response.path("patch").asString()), StandardCharsets.UTF_8);
    assertThat(JSON.readTree(patch))
        .isEqualTo(JSON.readTree("[{\"op\":\"add\",\"path\":\"/spec/color\",\"value\":\"blue\"}]"));
  }

  @Test
  void aDefaulterThatChangesNothingSendsNoPatch() {
    Webhooks webhooks =
        Webhooks.builder().setDefaults(Gadget.class, (gadget, admission) -> {}).build();
    JsonNode response =
        endpoint(webhooks.admission().get(0))
            .answer(
                review(
                    """
        {"apiVersion":"samples.webhooks.converge.dev/v1","kind":"Gadget",
         "metadata":{"name":"g","namespace":"ns"},"spec":{"color":"red"}}"""))
            .path("response");
    assertThat(response.path("allowed").asBoolean()).isTrue();
    assertThat(response.has("patch")).isFalse();
  }

  @Test
  void aDenialCarriesCodeMessageFieldAndWarnings() {
    Webhooks webhooks =
        Webhooks.builder()
            .validate(
                Gadget.class,
                admission ->
                    Verdict.deny("spec.color", "red is reserved")
                        .withWarning("colours are checked"))
            .build();
    JsonNode response =
        endpoint(webhooks.admission().get(0))
            .answer(
                review(
                    """
        {"apiVersion":"samples.webhooks.converge.dev/v1","kind":"Gadget",
         "metadata":{"name":"g","namespace":"ns"},"spec":{"color":"red"}}"""))
            .path("response");
    assertThat(response.path("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("code").asInt()).isEqualTo(403);
    assertThat(response.path("status").path("message").asString())
        .isEqualTo("Gadget ns/g: spec.color: red is reserved");
    assertThat(
            response.path("status").path("details").path("causes").get(0).path("field").asString())
        .isEqualTo("spec.color");
    assertThat(response.path("warnings").get(0).asString()).isEqualTo("colours are checked");
    assertThat(meters.get(WebhookMetrics.DENIALS).tag("field", "spec.color").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void conversionKeepsTheMetadataTheServerSentButTakesAnnotationsFromTheConverter() {
    Webhooks webhooks =
        Webhooks.builder().convert(Gadget.class, GadgetV2.class, new GadgetConversion()).build();
    ConversionWebhook hook = webhooks.conversion().get(0);
    ConversionEndpoint endpoint =
        new ConversionEndpoint(
            webhooks.conversion(),
            LenientSerialization.create(),
            calls,
            new WebhookMetrics(meters));
    JsonNode answer =
        endpoint.answer(
            JSON.readTree(
                """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
         "request":{"uid":"c-1","desiredAPIVersion":"samples.webhooks.converge.dev/v1","objects":[
          {"apiVersion":"samples.webhooks.converge.dev/v2","kind":"Gadget",
           "metadata":{"name":"g","namespace":"ns","uid":"x","resourceVersion":"7","generation":2,
                       "creationTimestamp":"2026-12-01T10:00:00Z"},
           "spec":{"color":"red","ports":[{"name":"web","port":80},{"name":"admin","port":81}]}}]}}"""));

    JsonNode response = answer.path("response");
    assertThat(hook.path()).isEqualTo("/convert/samples.webhooks.converge.dev/gadgets");
    assertThat(response.path("uid").asString()).isEqualTo("c-1");
    assertThat(response.path("result").path("status").asString()).isEqualTo("Success");
    JsonNode converted = response.path("convertedObjects").get(0);
    assertThat(converted.path("apiVersion").asString())
        .isEqualTo("samples.webhooks.converge.dev/v1");
    assertThat(converted.path("spec")).isEqualTo(JSON.readTree("{\"color\":\"red\",\"port\":80}"));
    JsonNode metadata = converted.path("metadata");
    assertThat(metadata.path("resourceVersion").asString()).isEqualTo("7");
    assertThat(metadata.path("generation").asInt()).isEqualTo(2);
    assertThat(metadata.path("creationTimestamp").asString()).isEqualTo("2026-12-01T10:00:00Z");
    assertThat(
            JSON.readTree(
                metadata.path("annotations").path(GadgetConversion.PORTS_ANNOTATION).asString()))
        .isEqualTo(
            JSON.readTree("[{\"name\":\"web\",\"port\":80},{\"name\":\"admin\",\"port\":81}]"));
  }

  @Test
  void aConverterThatThrowsIsAFailureWithTheObjectNamed() {
    Webhooks webhooks =
        Webhooks.builder()
            .convert(
                Gadget.class,
                GadgetV2.class,
                new dev.converge.webhooks.Converter<Gadget, GadgetV2>() {
                  @Override
                  public GadgetV2 convert(Gadget from) {
                    throw new IllegalArgumentException("port out of range");
                  }

                  @Override
                  public Gadget convertBack(GadgetV2 from) {
                    return new Gadget();
                  }
                })
            .build();
    JsonNode response =
        new ConversionEndpoint(
                webhooks.conversion(),
                LenientSerialization.create(),
                calls,
                new WebhookMetrics(meters))
            .answer(
                JSON.readTree(
                    """
        {"request":{"uid":"c-2","desiredAPIVersion":"samples.webhooks.converge.dev/v2","objects":[
          {"apiVersion":"samples.webhooks.converge.dev/v1","kind":"Gadget",
           "metadata":{"name":"g","namespace":"ns"},"spec":{"port":80}}]}}"""))
            .path("response");
    assertThat(response.path("result").path("status").asString()).isEqualTo("Failure");
    assertThat(response.path("result").path("message").asString())
        .isEqualTo(
            "Gadget ns/g: converting samples.webhooks.converge.dev/v1 to samples.webhooks.converge.dev/v2"
                + " failed: IllegalArgumentException: port out of range");
  }

  private AdmissionEndpoint endpoint(AdmissionWebhook hook) {
    return new AdmissionEndpoint(
        hook, LenientSerialization.create(), calls, new WebhookMetrics(meters));
  }

  private static JsonNode review(String object) {
    return JSON.readTree(
        """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview",
         "request":{"uid":"u-1","operation":"CREATE","namespace":"ns","name":"g",
                    "userInfo":{"username":"alice"},"object":%s}}"""
            .formatted(object));
  }
}
