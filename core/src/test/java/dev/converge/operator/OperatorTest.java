package dev.converge.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import dev.converge.builder.ControllerBuilder;
import dev.converge.event.EventRecorder;
import dev.converge.reconcile.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

class OperatorTest {

  private final KubernetesClient client = mock(KubernetesClient.class);

  private Operator operator() {
    return Operator.builder(client)
        .name("unit")
        .events(EventRecorder.discarding())
        .controller(ControllerBuilder.forPrimary(ConfigMap.class).build((c, ctx) -> Result.done()))
        .build();
  }

  @Test
  void aNewOperatorIsLiveButNotReadyAndTouchesNothing() {
    Operator operator = operator();
    OperatorHealth health = operator.health();
    assertThat(health.state()).isEqualTo(OperatorState.NEW);
    assertThat(health.live()).isTrue();
    assertThat(health.ready()).isFalse();
    assertThat(health.problems())
        .contains("informer caches have not synced yet", "operator is new");
    verifyNoInteractions(client);
  }

  @Test
  void stopIsIdempotentAndWorksBeforeStart() {
    Operator operator = operator();
    assertThat(operator.stop()).isTrue();
    assertThat(operator.stop()).isTrue();
    assertThat(operator.state()).isEqualTo(OperatorState.STOPPED);
    assertThat(operator.health().ready()).isFalse();
    assertThatThrownBy(operator::start).hasMessageContaining("already started");
  }

  @Test
  void cachesOfUnwatchedKindsAreRefusedWithTheFix() {
    Operator operator = operator();
    assertThatThrownBy(() -> operator.caches().of(io.fabric8.kubernetes.api.model.Secret.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Secret")
        .hasMessageContaining(".owns(Secret.class)");
  }

  @Test
  void genericEventsForUnwatchedKindsAreRefused() {
    Operator operator = operator();
    assertThatThrownBy(() -> operator.generic(new io.fabric8.kubernetes.api.model.Secret()))
        .hasMessageContaining("watches Secret");
  }

  @Test
  void owningAKindWithoutAnyStrategyFailsAtBuildNamingTheFix() {
    // core's tests have no strategy jar on the classpath, as an operator that forgot one
    assertThatThrownBy(
            () ->
                Operator.builder(client)
                    .controller(
                        ControllerBuilder.forPrimary(ConfigMap.class)
                            .named("copier")
                            .owns(io.fabric8.kubernetes.api.model.Secret.class)
                            .build((c, ctx) -> Result.done()))
                    .build())
        .isInstanceOf(dev.converge.strategy.StrategyConfigurationException.class)
        .hasMessageContaining("controller copier owns Secret")
        .hasMessageContaining("no strategy is configured")
        .hasMessageContaining("converge-strategies-ssa")
        .hasMessageContaining("OperatorBuilder.strategy(...)");
  }

  @Test
  void builderRejectsNonsense() {
    assertThatThrownBy(() -> Operator.builder(client).build())
        .hasMessageContaining("at least one controller");
    assertThatThrownBy(() -> Operator.builder(client).name("Not A Name"))
        .hasMessageContaining("lower-case DNS label");
  }

  @Test
  void aComponentThatCannotStartStopsTheOperatorAndClosesWhatHadStarted() throws Exception {
    org.mockito.Mockito.when(client.getHttpClient())
        .thenReturn(org.mockito.Mockito.mock(io.fabric8.kubernetes.client.http.HttpClient.class));
    java.util.List<String> closed = new java.util.concurrent.CopyOnWriteArrayList<>();
    Operator operator =
        Operator.builder(client)
            .name("unit")
            .events(EventRecorder.discarding())
            .httpPort(0)
            .component(
                "first",
                (c, metrics) -> {
                  return () -> closed.add("first");
                })
            .component(
                "second",
                (c, metrics) -> {
                  throw new java.io.IOException("port 9443 in use");
                })
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class).build((c, ctx) -> Result.done()))
            .build();

    assertThatThrownBy(operator::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("operator unit could not start: port 9443 in use");
    assertThat(closed).containsExactly("first");
    assertThat(operator.state()).isEqualTo(OperatorState.STOPPED);
  }

  @Test
  void componentsGetTheOperatorsClientAndRegistryAndCloseInReverseOrder() {
    org.mockito.Mockito.when(client.getHttpClient())
        .thenReturn(org.mockito.Mockito.mock(io.fabric8.kubernetes.client.http.HttpClient.class));
    java.util.List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    Operator operator =
        Operator.builder(client)
            .name("unit")
            .events(EventRecorder.discarding())
            .meterRegistry(registry)
            .component(
                "a",
                (c, metrics) -> {
                  events.add("start a " + (c == client) + " " + (metrics == registry));
                  return () -> events.add("close a");
                })
            .component(
                "b",
                (c, metrics) -> {
                  events.add("start b");
                  return () -> events.add("close b");
                })
            .controller(
                ControllerBuilder.forPrimary(ConfigMap.class).build((c, ctx) -> Result.done()))
            .build();
    try {
      operator.start();
    } catch (RuntimeException e) {
      // the mock client serves no informers; the components started before the caches
    }
    operator.stop(java.time.Duration.ZERO);
    assertThat(events).containsExactly("start a true true", "start b", "close b", "close a");
  }

  @Test
  void runReturnsOneWithoutBlockingWhenTheOperatorCannotStart() {
    org.mockito.Mockito.when(client.getHttpClient())
        .thenThrow(
            new io.fabric8.kubernetes.client.KubernetesClientException("connection refused"));
    Operator operator = operator();

    assertThat(operator.run()).isEqualTo(1);
    assertThat(operator.state()).isEqualTo(OperatorState.STOPPED);
  }
}
