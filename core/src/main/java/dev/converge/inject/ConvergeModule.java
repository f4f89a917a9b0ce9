package dev.converge.inject;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.operator.RunSettings;
import dev.converge.strategy.StrategiesModule;
import dev.converge.strategy.StrategyConfigurationException;
import dev.converge.strategy.StrategySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Binds an {@link Operator} (singleton) that runs every {@link ControllerDefinition} contributed
 * through the multibinder returned by {@link #controllers(Binder)}, on the bound {@link
 * KubernetesClient}. A bound {@link StrategySelector} (for instance from {@code StrategiesModule})
 * and a bound {@link MeterRegistry} are used when present.
 *
 * <pre>{@code
 * class AppModule extends AbstractModule {
 *   protected void configure() {
 *     install(new ConvergeModule(operator -> operator.name("app-operator")));
 *     install(new StrategiesModule(StrategySelection.defaults()));
 *     bind(KubernetesClient.class).toInstance(client);
 *     ConvergeModule.controllers(binder()).addBinding().toInstance(appDeployments);
 *   }
 * }
 * }</pre>
 *
 * Controllers can come from any number of modules; two with the same name fail injection.
 */
public final class ConvergeModule extends AbstractModule {

  private static final TypeLiteral<ControllerDefinition<?>> DEFINITION = new TypeLiteral<>() {};

  private final Consumer<OperatorBuilder> settings;

  /** An operator with default settings. */
  public ConvergeModule() {
    this(builder -> {});
  }

  /** An operator whose builder is adjusted by {@code settings} (name, leader election, ...). */
  public ConvergeModule(Consumer<OperatorBuilder> settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** The set that controllers are contributed to; call from any module's {@code configure}. */
  public static Multibinder<ControllerDefinition<?>> controllers(Binder binder) {
    return Multibinder.newSetBinder(binder, DEFINITION);
  }

  /**
   * Everything an operator run by {@code settings} needs besides its controllers: a {@code
   * ConvergeModule} configured by {@link RunSettings#applyTo}, the strategies found on the
   * classpath for {@code settings.strategies()} ({@link StrategiesModule}, which fails injector
   * creation when the selection names a strategy no jar provides), and bindings of {@code client}
   * and {@code registry}.
   *
   * <pre>{@code
   * Operator operator = ConvergeModule.createOperator(
   *     ConvergeModule.of(client, settings, registry), new MyControllersModule(settings));
   * }</pre>
   */
  public static Module of(KubernetesClient client, RunSettings settings, MeterRegistry registry) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(registry, "registry");
    return new AbstractModule() {
      @Override
      protected void configure() {
        install(new ConvergeModule(settings::applyTo));
        install(new StrategiesModule(settings.strategies()));
        bind(KubernetesClient.class).toInstance(client);
        bind(MeterRegistry.class).toInstance(registry);
      }
    };
  }

  /**
   * The operator of an injector made from {@code modules}, not started. A strategy configuration
   * error (a strategy no jar provides, a malformed selection) is thrown as the {@link
   * StrategyConfigurationException} that says what to fix, not wrapped in Guice's report.
   */
  public static Operator createOperator(Module... modules) {
    try {
      return Guice.createInjector(modules).getInstance(Operator.class);
    } catch (CreationException e) {
      if (e.getCause() instanceof StrategyConfigurationException strategyError) {
        throw strategyError;
      }
      throw e;
    }
  }

  @Override
  protected void configure() {
    controllers(binder());
    OptionalBinder.newOptionalBinder(binder(), StrategySelector.class);
    OptionalBinder.newOptionalBinder(binder(), MeterRegistry.class);
  }

  @Provides
  @Singleton
  Operator operator(
      KubernetesClient client,
      Set<ControllerDefinition<?>> controllers,
      Optional<StrategySelector> strategies,
      Optional<MeterRegistry> registry) {
    OperatorBuilder builder = Operator.builder(client);
    // A stable order, so that logs and worker start-up do not depend on hash order.
    controllers.stream()
        .sorted(Comparator.comparing(ControllerDefinition::name))
        .forEach(builder::controller);
    strategies.ifPresent(builder::strategies);
    registry.ifPresent(builder::meterRegistry);
    settings.accept(builder);
    return builder.build();
  }
}
