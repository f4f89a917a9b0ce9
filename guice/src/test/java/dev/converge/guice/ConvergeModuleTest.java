package dev.converge.guice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import dev.converge.builder.ControllerBuilder;
import dev.converge.metrics.MicrometerControllerMetrics;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorState;
import dev.converge.reconcile.Result;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyConfigurationException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ConvergeModuleTest {

  private final KubernetesClient client = mock(KubernetesClient.class);

  private Module clientModule() {
    return new AbstractModule() {
      @Override
      protected void configure() {
        bind(KubernetesClient.class).toInstance(client);
      }
    };
  }

  @Test
  void controllersContributedFromSeveralModulesEndUpInOneOperator() {
    Injector injector =
        Guice.createInjector(
            new ConvergeModule(b -> b.name("test-operator")),
            clientModule(),
            new AbstractModule() {
              @Override
              protected void configure() {
                ConvergeModule.controllers(binder())
                    .addBinding()
                    .toInstance(
                        ControllerBuilder.forPrimary(Deployment.class)
                            .build((p, c) -> Result.done()));
              }
            },
            new AbstractModule() {
              @Override
              protected void configure() {
                ConvergeModule.controllers(binder())
                    .addBinding()
                    .toInstance(
                        ControllerBuilder.forPrimary(ConfigMap.class)
                            .build((p, c) -> Result.done()));
              }
            });

    Operator operator = injector.getInstance(Operator.class);

    assertThat(operator.name()).isEqualTo("test-operator");
    assertThat(operator.state()).isEqualTo(OperatorState.NEW);
    assertThat(operator.toString()).contains("controllers=2");
    assertThat(injector.getInstance(Operator.class)).as("singleton").isSameAs(operator);
  }

  @Test
  void twoControllersWithTheSameNameFailWithTheName() {
    Injector injector =
        Guice.createInjector(
            new ConvergeModule(),
            clientModule(),
            new AbstractModule() {
              @Override
              protected void configure() {
                ConvergeModule.controllers(binder())
                    .addBinding()
                    .toInstance(
                        ControllerBuilder.forPrimary(Deployment.class)
                            .named("same")
                            .build((p, c) -> Result.done()));
                ConvergeModule.controllers(binder())
                    .addBinding()
                    .toInstance(
                        ControllerBuilder.forPrimary(ConfigMap.class)
                            .named("same")
                            .build((p, c) -> Result.done()));
              }
            });
    assertThatThrownBy(() -> injector.getInstance(Operator.class))
        .isInstanceOf(ProvisionException.class)
        .hasMessageContaining("two controllers are named \"same\"");
  }

  @Test
  void createOperatorReportsAnUninstalledStrategyAsTheStrategyError() {
    Module controller =
        new AbstractModule() {
          @Override
          protected void configure() {
            ConvergeModule.controllers(binder())
                .addBinding()
                .toInstance(
                    ControllerBuilder.forPrimary(Deployment.class).build((p, c) -> Result.done()));
          }
        };
    assertThatThrownBy(
            () ->
                ConvergeModule.createOperator(
                    new ConvergeModule(),
                    clientModule(),
                    controller,
                    new StrategiesModule("no-such-strategy")))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'no-such-strategy' is not on the classpath")
        .hasMessageContaining("[create-only, ssa, update]");
    assertThatThrownBy(
            () ->
                ConvergeModule.createOperator(
                    new ConvergeModule(b -> b.strategies("default=no-such-strategy")),
                    clientModule(),
                    controller))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("no-such-strategy");
    assertThat(
            ConvergeModule.createOperator(
                    new ConvergeModule(b -> b.name("plain")), clientModule(), controller)
                .name())
        .isEqualTo("plain");
  }

  @Test
  void anOperatorWithoutControllersIsRejected() {
    Injector injector = Guice.createInjector(new ConvergeModule(), clientModule());
    assertThatThrownBy(() -> injector.getInstance(Operator.class))
        .hasMessageContaining("at least one controller");
  }

  @Test
  void aDirectlyBoundMeterRegistryReceivesTheOperatorsMetrics() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Injector injector =
        Guice.createInjector(
            new ConvergeModule(),
            clientModule(),
            new AbstractModule() {
              @Override
              protected void configure() {
                bind(MeterRegistry.class).toInstance(registry);
                ConvergeModule.controllers(binder())
                    .addBinding()
                    .toInstance(
                        ControllerBuilder.forPrimary(Deployment.class)
                            .build((p, c) -> Result.done()));
              }
            });

    injector.getInstance(Operator.class);

    assertThat(
            registry
                .find(MicrometerControllerMetrics.ACTIVE_WORKERS)
                .tag("controller", "deployment")
                .gauge())
        .isNotNull();
  }

  @Test
  void boundStrategiesAreTheOnlyOnesTheOperatorChoosesFrom() {
    Module controller =
        new AbstractModule() {
          @Override
          protected void configure() {
            ConvergeModule.controllers(binder())
                .addBinding()
                .toInstance(
                    ControllerBuilder.forPrimary(Deployment.class).build((p, c) -> Result.done()));
          }
        };
    ResourceStrategy strategy = mock(ResourceStrategy.class);
    when(strategy.name()).thenReturn("test");
    Module mine =
        new AbstractModule() {
          @Override
          protected void configure() {
            ConvergeModule.strategies(binder()).addBinding("test").toInstance(strategy);
          }
        };

    Operator operator =
        ConvergeModule.createOperator(
            new ConvergeModule(
                b -> b.name("run-operator").strategies("default=test, v1/Service=update")),
            new StrategiesModule("update"),
            mine,
            clientModule(),
            controller);
    assertThat(operator.name()).isEqualTo("run-operator");

    assertThatThrownBy(
            () ->
                ConvergeModule.createOperator(
                    new ConvergeModule(b -> b.strategies("default=ssa")),
                    new StrategiesModule("update"),
                    mine,
                    clientModule(),
                    controller))
        .isInstanceOf(StrategyConfigurationException.class)
        .hasMessageContaining("'ssa'")
        .hasMessageContaining("[test, update]");
  }
}
