package dev.converge.crd.roundtrip.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.crd.internal.KubernetesSchemaModule;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every string the sampler draws matches its pattern, and the draws vary. */
class RegexSamplerTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "^[a-z][a-z0-9-]*$",
        "^v[0-9]+$",
        "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$",
        "^(img|image)-\\d{2,4}$",
        "^[^/]+/[\\w.-]+(:[a-z0-9]{1,8})?$",
        "^(?:a|bc|d{3})+?x?$",
        "[A-F0-9]{8}",
        KubernetesSchemaModule.QUANTITY_PATTERN,
        KubernetesSchemaModule.BASE64_PATTERN,
        KubernetesSchemaModule.LOCAL_TIME_PATTERN,
      })
  void drawsMatchThePattern(String pattern) {
    Random random = new Random(42);
    Pattern compiled = Pattern.compile(pattern);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      String drawn = RegexSampler.sample(pattern, random);
      assertThat(compiled.matcher(drawn).find()).as("%s matches %s", drawn, pattern).isTrue();
      seen.add(drawn);
    }
    assertThat(seen.size()).as("distinct draws").isGreaterThan(20);
  }

  @Test
  void isoDurationsDrawnAreWhatJavaParses() {
    Random random = new Random(7);
    for (int i = 0; i < 500; i++) {
      String drawn = RegexSampler.sample(KubernetesSchemaModule.ISO_DURATION_PATTERN, random);
      assertThat(java.time.Duration.parse(drawn)).as(drawn).isNotNull();
    }
  }

  @Test
  void syntaxOutsideTheSubsetIsNamed() {
    assertThatThrownBy(() -> RegexSampler.sample("^(?=a)b$", new Random(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("look-around");
    assertThatThrownBy(() -> RegexSampler.sample("\\p{Alpha}", new Random(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'\\p'");
  }
}
