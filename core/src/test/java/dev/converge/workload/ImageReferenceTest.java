package dev.converge.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImageReferenceTest {

  private static final String SHA = "sha256:" + "a".repeat(64);

  @Test
  void aBareNameHasNoRegistryTagOrDigest() {
    ImageReference ref = ImageReference.parse("nginx");
    assertThat(ref).isEqualTo(new ImageReference("", "nginx", "", ""));
    assertThat(ref.registryName()).isEmpty();
    assertThat(ref.tagName()).isEmpty();
  }

  @Test
  void registryWithPortPathTagAndDigest() {
    ImageReference ref = ImageReference.parse("registry.example.com:5000/team/app:1.2.3@" + SHA);
    assertThat(ref.registry()).isEqualTo("registry.example.com:5000");
    assertThat(ref.repository()).isEqualTo("team/app");
    assertThat(ref.tag()).isEqualTo("1.2.3");
    assertThat(ref.digest()).isEqualTo(SHA);
    assertThat(ref.toString()).isEqualTo("registry.example.com:5000/team/app:1.2.3@" + SHA);
  }

  @Test
  void aFirstComponentWithoutDotOrPortIsAPathNotARegistry() {
    ImageReference ref = ImageReference.parse("library/nginx:1.27");
    assertThat(ref.registry()).isEmpty();
    assertThat(ref.repository()).isEqualTo("library/nginx");
    assertThat(ImageReference.parse("localhost/app").registry()).isEqualTo("localhost");
    assertThat(ImageReference.parse("localhost:5000/app").registry()).isEqualTo("localhost:5000");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "nginx:1.27-alpine",
        "ghcr.io/org/repo/sub:v1_2",
        "a__b/c-d.e:latest",
        "nginx@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "[::1]:5000/app:1",
        "quay.io/prometheus/node-exporter:v1.8.2",
        "my--repo"
      })
  void acceptsWhatRegistriesAccept(String text) {
    assertThat(ImageReference.parse(text).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " nginx",
        "nginx latest",
        "Nginx",
        "team/App:1",
        "nginx:",
        ":1.0",
        "nginx:-bad",
        "nginx:" + "x", // placeholder replaced below by a too-long tag
        "team//app",
        "/app",
        "app/",
        "nginx@sha256:abc",
        "nginx@notadigest",
        "registry.example.com:99999/app",
        "-bad.example.com/app",
        "nginx::1",
        "app_/x"
      })
  void rejectsWhatNoRegistryAccepts(String text) {
    String input = text.equals("nginx:x") ? "nginx:" + "x".repeat(129) : text;
    assertThatThrownBy(() -> ImageReference.parse(input))
        .isInstanceOf(InvalidImageReferenceException.class)
        .hasMessageContaining("image reference '" + input + "' is not valid");
  }

  @Test
  void theMessageSaysWhatIsWrong() {
    assertThatThrownBy(() -> ImageReference.parse("-bad.example.com/app"))
        .isInstanceOf(InvalidImageReferenceException.class)
        .hasMessageContaining("not a valid host name");
    assertThatThrownBy(() -> ImageReference.parse("Team/app:1"))
        .hasMessageContaining("repository names must be lower-case");
    assertThatThrownBy(() -> ImageReference.parse("team/App:1"))
        .hasMessageContaining("repository names must be lower-case");
    assertThatThrownBy(() -> ImageReference.parse("nginx@sha256:abc"))
        .hasMessageContaining("64 lower-case hex digits");
    assertThatThrownBy(() -> ImageReference.parse("nginx:1.0 ")).hasMessageContaining("whitespace");
  }

  @Test
  void aNullReferenceIsRejectedNotANullPointer() {
    assertThatThrownBy(() -> ImageReference.parse(null))
        .isInstanceOf(InvalidImageReferenceException.class)
        .hasMessageContaining("empty");
  }
}
