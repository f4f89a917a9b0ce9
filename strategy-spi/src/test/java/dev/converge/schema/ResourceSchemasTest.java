package dev.converge.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.testing.ManualClock;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceSchemasTest {

  private static final String SAMPLE = read();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<String> requests = new ArrayList<>();
  private final Map<String, String> server = new HashMap<>();

  private static String read() {
    try (InputStream in =
        ResourceSchemasTest.class.getResourceAsStream("/openapi/sample-v1.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ResourceSchemas schemas() {
    return new ResourceSchemas(
        path -> {
          requests.add(path);
          return server.get(path);
        },
        clock);
  }

  private void publish(String... groupVersions) {
    StringBuilder index = new StringBuilder("{\"paths\":{");
    for (int i = 0; i < groupVersions.length; i++) {
      String url = "/openapi/v3/" + groupVersions[i] + "?hash=" + i;
      index
          .append(i == 0 ? "" : ",")
          .append('"')
          .append(groupVersions[i])
          .append("\":{\"serverRelativeURL\":\"")
          .append(url)
          .append("\"}");
      server.put(url, SAMPLE);
    }
    server.put("/openapi/v3", index.append("}}").toString());
  }

  @Test
  void aGroupVersionIsReadOnceAndThenLookedUp() {
    publish("api/v1", "apis/apps/v1");
    ResourceSchemas schemas = schemas();
    SchemaNode pod = schemas.forKind(new ApiKind("v1", "Pod"));
    assertThat(pod).isInstanceOf(MapSchema.class);
    assertThat(schemas.forKind(new ApiKind("v1", "ConfigMap"))).isInstanceOf(MapSchema.class);
    assertThat(schemas.forKind(new ApiKind("apps/v1", "Deployment"))).isInstanceOf(MapSchema.class);
    int afterFirst = requests.size();
    for (int i = 0; i < 100; i++) {
      schemas.forKind(new ApiKind("v1", "Pod"));
      schemas.forKind(new ApiKind("apps/v1", "Deployment"));
    }
    assertThat(requests)
        .hasSize(afterFirst)
        .containsExactly(
            "/openapi/v3", "/openapi/v3/api/v1?hash=0", "/openapi/v3/apis/apps/v1?hash=1");
  }

  @Test
  void aKindInstalledLaterIsFoundAndAKindNeverDescribedIsAskedForRarely() {
    publish("api/v1");
    ResourceSchemas schemas = schemas();
    assertThat(schemas.forKind(new ApiKind("v1", "Pod"))).isInstanceOf(MapSchema.class);
    assertThat(schemas.forKind(new ApiKind("test.converge.dev/v1", "Gadget")))
        .isEqualTo(UntypedSchema.INSTANCE);
    publish("api/v1", "apis/test.converge.dev/v1");
    clock.advance(Duration.ofSeconds(1));
    assertThat(schemas.forKind(new ApiKind("test.converge.dev/v1", "Gadget")))
        .isInstanceOf(MapSchema.class);

    int before = requests.size();
    for (int i = 0; i < 50; i++) {
      schemas.forKind(new ApiKind("v1", "Nothing"));
    }
    assertThat(requests.size() - before).isLessThanOrEqualTo(4);
    clock.advance(Duration.ofMinutes(10));
    before = requests.size();
    for (int i = 0; i < 50; i++) {
      schemas.forKind(new ApiKind("v1", "Nothing"));
    }
    assertThat(requests.size() - before).isLessThanOrEqualTo(4);
  }

  @Test
  void aServerWithoutSchemasGivesUntypedAndAFailureIsAnError() {
    ResourceSchemas none =
        new ResourceSchemas(
            path -> {
              throw new KubernetesClientException("forbidden", 403, null);
            },
            clock);
    assertThat(none.forKind(new ApiKind("v1", "Pod"))).isEqualTo(UntypedSchema.INSTANCE);
    ResourceSchemas failing =
        new ResourceSchemas(
            path -> {
              throw new KubernetesClientException("connection refused");
            },
            clock);
    assertThatThrownBy(() -> failing.forKind(new ApiKind("v1", "Pod")))
        .isInstanceOf(SchemaUnavailableException.class)
        .hasMessageContaining("/openapi/v3");
  }
}
