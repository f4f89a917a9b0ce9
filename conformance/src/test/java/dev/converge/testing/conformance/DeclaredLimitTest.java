package dev.converge.testing.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.converge.strategy.ApplyResult;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyContext;
import dev.converge.testing.conformance.internal.ExpectationFailure;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** A declared limit covers exactly the expectation it names, never the check as a whole. */
class DeclaredLimitTest {

  private final ConformanceTarget target =
      ConformanceTarget.of(
              new ResourceStrategy() {
                @Override
                public String name() {
                  return "example";
                }

                @Override
                public <R extends HasMetadata> ApplyResult<R> apply(
                    R desired, StrategyContext context) {
                  throw new UnsupportedOperationException("not called");
                }
              })
          .withLimit(
              ConformanceCase.CUSTOM_RESOURCE_LISTS,
              "foreign-list-element-kept",
              "lists are sent whole");

  @Test
  void aFailureOfOnlyDeclaredExpectationsIsNotSupported() {
    StrategyConformanceKit.Judged judged =
        StrategyConformanceKit.judge(
            target,
            "custom-resource-lists",
            () -> {
              throw ExpectationFailure.of(
                  "foreign-list-element-kept", "spec.ports[name=foreign]: absent");
            });
    assertThat(judged.verdict()).isEqualTo(Verdict.NOT_SUPPORTED);
    assertThat(judged.detail())
        .contains("lists are sent whole")
        .contains("spec.ports[name=foreign]: absent");
    assertThat(judged.thrown()).isInstanceOf(TestAbortedException.class);
  }

  @Test
  void anUndeclaredExpectationBesideADeclaredOneFails() {
    Map<String, String> failed = new LinkedHashMap<>();
    failed.put("foreign-list-element-kept", "absent");
    failed.put("steady", "a write on the second apply");
    StrategyConformanceKit.Judged judged =
        StrategyConformanceKit.judge(
            target,
            "custom-resource-lists",
            () -> {
              throw new ExpectationFailure(failed);
            });
    assertThat(judged.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(judged.detail()).contains("[steady]");
  }

  @Test
  void theLimitBelongsToItsCheckAndErrorsAreFailures() {
    assertThat(
            StrategyConformanceKit.judge(
                    target,
                    "foreign-finalizer",
                    () -> {
                      throw ExpectationFailure.of("foreign-list-element-kept", "absent");
                    })
                .verdict())
        .isEqualTo(Verdict.FAIL);
    assertThat(
            StrategyConformanceKit.judge(
                    target,
                    "custom-resource-lists",
                    () -> {
                      throw new IllegalStateException("HTTP 422");
                    })
                .verdict())
        .isEqualTo(Verdict.FAIL);
    assertThat(StrategyConformanceKit.judge(target, "custom-resource-lists", () -> "ok").verdict())
        .isEqualTo(Verdict.PASS);
  }
}
