package dev.converge.guice;

import com.google.inject.AbstractModule;
import com.google.inject.Binder;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.ProvisionException;
import com.google.inject.Singleton;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.Multibinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.converge.builder.ControllerDefinition;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.strategy.ResourceStrategy;
import dev.converge.strategy.StrategyConfigurationException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Binds an {@link Operator} (a singleton, not started) configured by a {@code Consumer} of its
 * {@link OperatorBuilder}, running every {@link ControllerDefinition} contributed through {@link
 * #controllers(Binder)} from any module.
 *
 * <ul>
 *   <li>The client: a bound {@link KubernetesClient} (which stays the binder's to close), else the
 *       one the operator makes from its settings and closes itself.
 *   <li>The strategies: when any are bound through {@link #strategies(Binder)} (by {@link
 *       StrategiesModule} or by your own modules), exactly those; else those found on the
 *       classpath. The selection is the builder's ({@code builder.strategies("...")}).
 *   <li>A bound {@link MeterRegistry} records the operator's metrics.
 * </ul>
 *
 * <pre>{@code
 * Operator operator = ConvergeModule.createOperator(
 *     new ConvergeModule(builder -> builder.name("app-operator").strategies("default=ssa")),
 *     new StrategiesModule("ssa", "update"),
 *     new AppModule());   // ConvergeModule.controllers(binder()).addBinding().toInstance(...)
 * int exitCode = operator.run();   // main exits with it; the library never exits the JVM
 * }</pre>
 *
 * Two controllers with the same name fail injection.
 */
public final class ConvergeModule extends AbstractModule {

  private static final TypeLiteral<ControllerDefinition<?>> DEFINITION = new TypeLiteral<>() {};

  private final Consumer<OperatorBuilder> settings;

  /** An operator with default settings. */
  public ConvergeModule() {
    this(builder -> {});
  }

  /**
   * An operator whose builder is configured by {@code settings} (name, leader election, ...).
   *
   * @param settings called once on the builder, after the bound client, controllers, strategies and
   *     meter registry are set, so what it sets wins
   */
  public ConvergeModule(Consumer<OperatorBuilder> settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * The set that controllers are contributed to; call from any module's {@code configure}. The
   * operator runs them in the order of their names.
   *
   * @param binder the binder of the calling module
   * @return the set binder to add controller definitions to
   */
  public static Multibinder<ControllerDefinition<?>> controllers(Binder binder) {
    return Multibinder.newSetBinder(binder, DEFINITION);
  }

  /**
   * The strategies to choose from, by {@link ResourceStrategy#name()}; call from any module's
   * {@code configure}, e.g. {@code strategies(binder()).addBinding("replace").to(Replace.class)}.
   *
   * @param binder the binder of the calling module
   * @return the map binder to add strategies to, keyed by name
   */
  public static MapBinder<String, ResourceStrategy> strategies(Binder binder) {
    return MapBinder.newMapBinder(binder, String.class, ResourceStrategy.class);
  }

  /**
   * The operator of an injector made from {@code modules}, not started. A strategy configuration
   * error (a strategy no jar provides, a malformed selection) is thrown as the {@link
   * StrategyConfigurationException} that says what to fix, not wrapped in Guice's report; so is an
   * invalid setting of the builder, as its {@link IllegalArgumentException}.
   *
   * @param modules the modules, a {@code ConvergeModule} among them
   * @return the operator, built and not started
   * @throws StrategyConfigurationException when the strategies cannot be set up as configured
   * @throws IllegalArgumentException when a setting of the builder is invalid
   * @throws com.google.inject.CreationException for any other error in the modules' bindings
   */
  public static Operator createOperator(Module... modules) {
    try {
      return Guice.createInjector(modules).getInstance(Operator.class);
    } catch (CreationException e) {
      throw unwrapped(e, e.getCause());
    } catch (ProvisionException e) {
      throw unwrapped(e, e.getCause());
    }
  }

  private static RuntimeException unwrapped(RuntimeException guiceError, Throwable cause) {
    if (cause instanceof StrategyConfigurationException strategyError) {
      return strategyError;
    }
    if (cause instanceof IllegalArgumentException badSetting) {
      return badSetting;
    }
    return guiceError;
  }

  @Override
  protected void configure() {
    controllers(binder());
    strategies(binder());
    OptionalBinder.newOptionalBinder(binder(), KubernetesClient.class);
    OptionalBinder.newOptionalBinder(binder(), MeterRegistry.class);
  }

  @Provides
  @Singleton
  Operator operator(
      Optional<KubernetesClient> client,
      Set<ControllerDefinition<?>> controllers,
      Map<String, ResourceStrategy> strategies,
      Optional<MeterRegistry> registry) {
    OperatorBuilder builder = client.map(Operator::builder).orElseGet(Operator::builder);
    // A stable order, so that logs and worker start-up do not depend on hash order.
    controllers.stream()
        .sorted(Comparator.comparing(ControllerDefinition::name))
        .forEach(builder::controller);
    if (!strategies.isEmpty()) {
      builder.installedStrategies(strategies.values());
    }
    registry.ifPresent(builder::meterRegistry);
    settings.accept(builder);
    return builder.build();
  }
}
