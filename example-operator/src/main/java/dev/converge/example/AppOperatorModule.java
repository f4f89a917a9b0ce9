package dev.converge.example;

import com.google.inject.AbstractModule;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.inject.ConvergeModule;
import dev.converge.operator.Operator;
import dev.converge.operator.RunSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Wires the AppDeployment operator with Guice: the AppDeployment controller, beside what {@link
 * ConvergeModule#of} brings for the given settings (the {@code Operator}, and the strategies found
 * on the classpath by ServiceLoader, which fail injector creation when the selection names a
 * strategy no jar provides).
 *
 * <pre>{@code
 * Operator operator = AppOperatorModule.createOperator(client, OperatorSettings.defaults(), registry);
 * operator.start();
 * }</pre>
 */
public final class AppOperatorModule extends AbstractModule {

  private final RunSettings settings;

  public AppOperatorModule(RunSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * The operator, not started, as {@code run} builds it: on {@code client}, with these settings.
   */
  public static Operator createOperator(
      KubernetesClient client, RunSettings settings, MeterRegistry registry) {
    return ConvergeModule.createOperator(
        ConvergeModule.of(client, settings, registry), new AppOperatorModule(settings));
  }

  @Override
  protected void configure() {
    ConvergeModule.controllers(binder())
        .addBinding()
        .toInstance(AppDeploymentController.definition(settings));
  }
}
