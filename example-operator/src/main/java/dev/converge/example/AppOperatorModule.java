package dev.converge.example;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.status.Conditions;
import dev.converge.strategy.StrategiesModule;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Wires the AppDeployment operator with Guice: the strategies found on the classpath by
 * ServiceLoader ({@link StrategiesModule}, which fails injector creation when the selection names
 * a strategy no jar provides), the controller, and the {@link Operator} on the given client.
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

  public AppOperatorModule(KubernetesClient client, OperatorSettings settings, MeterRegistry registry) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  protected void configure() {
    install(new StrategiesModule(settings.strategies(), AppOperatorModule.class.getClassLoader()));
    bind(KubernetesClient.class).toInstance(client);
    bind(MeterRegistry.class).toInstance(registry);
    bind(OperatorSettings.class).toInstance(settings);
  }

  @Provides
  @Singleton
  Operator operator(KubernetesClient kubernetes, StrategySelector strategies,
      MeterRegistry meters, OperatorSettings config) {
    OperatorBuilder builder = Operator.builder(kubernetes)
        .name(OperatorSettings.OPERATOR_NAME)
        .controller(AppDeploymentController.definition(new Conditions(config.clock())))
        .strategies(strategies)
        .meterRegistry(meters);
    config.namespace().ifPresent(builder::namespace);
    config.leaderElection().ifPresent(builder::leaderElection);
    return builder.build();
  }
}
