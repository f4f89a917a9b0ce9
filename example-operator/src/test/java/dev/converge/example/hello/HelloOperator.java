package dev.converge.example.hello;

import dev.converge.builder.ControllerBuilder;
import dev.converge.operator.Operator;
import dev.converge.owner.DependentMetadata;
import dev.converge.reconcile.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;

/** For each Greeting, a ConfigMap of the same name with the message; deleted with it. */
public final class HelloOperator {

  public static void main(String[] args) {
    var greetings =
        ControllerBuilder.forPrimary(Greeting.class)
            .owns(ConfigMap.class)
            .build(
                (greeting, context) -> {
                  context.apply(
                      new ConfigMapBuilder()
                          .withMetadata(DependentMetadata.of(greeting, Map.of()))
                          .addToData("message", "Hello, " + greeting.getSpec().name() + "!")
                          .build());
                  return Result.done();
                });
    System.exit(Operator.builder().name("hello-operator").controller(greetings).build().run());
  }
}
