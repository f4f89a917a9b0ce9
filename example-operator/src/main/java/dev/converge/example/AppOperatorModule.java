package dev.converge.example;

import com.google.inject.AbstractModule;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.inject.ConvergeModule;
import dev.converge.operator.Operator;
import dev.converge.status.Conditions;
import dev.converge.strategy.StrategiesModule;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Wires the AppDeployment operator with Guice: Converge's {@link ConvergeModule} (the {@code
 * Operator}), the strategies found on the classpath by ServiceLoader ({@link StrategiesModule},
 * which fails injector creation when the selection names a strategy no jar provides), and the
 * AppDeployment controller.
 *
 * <pre>{@code
 * Operator operator = Guice.createInjector(new AppOperatorModule(client, settings, registry))
 *     .getInstance(Operator.class);
 * operator.start();
 * }</pre>
 */
public final class AppOperatorModule extends AbstractModule {

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final MeterRegistry registry;

  public AppOperatorModule(
      KubernetesClient client, OperatorSettings settings, MeterRegistry registry) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * The operator, not started, as {@code run} builds it: on {@code client}, with these settings.
   */
  public static Operator createOperator(
      KubernetesClient client, OperatorSettings settings, MeterRegistry registry) {
    return ConvergeModule.createOperator(new AppOperatorModule(client, settings, registry));
  }

  @Override
  protected void configure() {
    install(
        new ConvergeModule(
            operator -> {
              operator.name(OperatorSettings.OPERATOR_NAME);
              operator.namespaces(settings.namespaces());
              settings.leaderElection().ifPresent(operator::leaderElection);
              operator.accessReviewInterval(settings.accessReviewInterval());
            }));
    install(new StrategiesModule(settings.strategies(), AppOperatorModule.class.getClassLoader()));
    bind(KubernetesClient.class).toInstance(client);
    bind(MeterRegistry.class).toInstance(registry);
    ConvergeModule.controllers(binder())
        .addBinding()
        .toInstance(
            AppDeploymentController.definition(
                new Conditions(settings.clock()), settings.workers()));
  }
}
