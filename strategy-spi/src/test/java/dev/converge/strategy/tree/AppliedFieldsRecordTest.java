package dev.converge.strategy.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.converge.schema.FieldSet;
import dev.converge.schema.MapSchema;
import dev.converge.schema.ScalarSchema;
import dev.converge.schema.SchemaNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AppliedFieldsRecordTest {

  private static final SchemaNode CONFIG_MAP =
      new MapSchema(
          "io.k8s.api.core.v1.ConfigMap",
          false,
          true,
          Set.of("data", "metadata"),
          f -> MapSchema.mapOf(ScalarSchema.STRING, false),
          null,
          Map.of());

  @Test
  void aSmallRecordIsReadableJsonAndReadsBack() {
    FieldSet set = FieldSet.of(CONFIG_MAP, Map.of("data", Map.of("a", "1", "b", "")));
    String text = AppliedFieldsRecord.encode(set);
    assertThat(text).startsWith("{").contains("f:data", "f:a", "f:b");
    assertThat(AppliedFieldsRecord.decode(text).leaves()).isEqualTo(set.leaves());
  }

  @Test
  void sixThousandLongKeysStayWellUnderTheAnnotationLimitAndStillRemoveDroppedKeys() {
    Random random = new Random(7);
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < 6000; i++) {
      StringBuilder key = new StringBuilder();
      for (int c = 0; c < 40; c++) {
        key.append((char) ('a' + random.nextInt(26)));
      }
      data.put(key.toString(), "v");
    }
    String text = AppliedFieldsRecord.encode(FieldSet.of(CONFIG_MAP, Map.of("data", data)));
    assertThat(text.length()).isLessThanOrEqualTo(AppliedFieldsRecord.MAX_LENGTH);
    FieldSet read = AppliedFieldsRecord.decode(text);
    assertThat(read.child("f:data").orElseThrow().ownsAllChildren()).isTrue();
  }

  @Test
  void aRecordOfAnEarlierVersionReadsAsPaths() {
    FieldSet read = AppliedFieldsRecord.decode("{\"data\":{\"a\":1},\"spec\":{\"ports\":1}}");
    assertThat(read.leaves())
        .containsExactlyInAnyOrder(List.of("f:data", "f:a"), List.of("f:spec", "f:ports"));
  }

  @Test
  void aRecordEditedByHandIsRefusedWithAReason() {
    assertThatThrownBy(() -> AppliedFieldsRecord.decode("not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a JSON field record");
  }
}
