package dev.converge.example;

import com.google.inject.AbstractModule;
import dev.converge.example.controller.AppDeploymentController;
import dev.converge.example.webhook.AppWebhooks;
import dev.converge.guice.ConvergeModule;
import dev.converge.operator.LeaderElection;
import dev.converge.operator.Operator;
import dev.converge.operator.OperatorBuilder;
import dev.converge.operator.OperatorFactory;
import dev.converge.operator.OperatorOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The AppDeployment operator's process ({@code --help} lists the flags), and its Guice module: the
 * one controller, assembled by converge-guice's {@link ConvergeModule}.
 */
@Command(name = AppOperator.NAME, mixinStandardHelpOptions = true, version = "app-operator 0.1.0")
public final class AppOperator extends AbstractModule
    implements Callable<Integer>, OperatorFactory {

  /** The operator's name: its Event component, field manager, Lease and user agent. */
  public static final String NAME = "app-operator";

  @Mixin OperatorOptions options = new OperatorOptions();

  @Option(names = "--webhook-cert-dir", description = "Serve the webhooks with tls.crt/tls.key.")
  Path webhookCertDir;

  @Option(names = "--webhook-port", defaultValue = "9443", description = "Default: 9443.")
  int webhookPort;

  public static void main(String[] args) {
    System.exit(OperatorOptions.execute(new AppOperator(), args));
  }

  @Override
  public Integer call() {
    return operator(options::applyTo).run();
  }

  /**
   * The operator, not started: Deployments by server-side apply, Services by create-or-update (so
   * that keeping the allocated clusterIP is exercised on every update), 16 AppDeployments at once
   * (a reconcile mostly waits for the API server), then {@code settings}.
   */
  public Operator operator(Consumer<OperatorBuilder> settings) {
    return ConvergeModule.createOperator(
        new ConvergeModule(
            builder -> {
              builder.name(NAME).strategies("default=ssa, v1/Service=update").workers(16);
              if (webhookCertDir != null) {
                builder.component("webhooks", AppWebhooks.server(webhookCertDir, webhookPort));
              }
              settings.accept(builder);
            }),
        this);
  }

  @Override
  protected void configure() {
    ConvergeModule.controllers(binder())
        .addBinding()
        .toInstance(AppDeploymentController.definition());
  }

  /** As {@code deploy/} runs it, sharded, for the build step that writes its RBAC. */
  @Override
  public Operator create(KubernetesClient client) {
    return operator(
        builder ->
            builder.client(client).leaderElection(LeaderElection.onLease(NAME, NAME)).sharded());
  }
}
