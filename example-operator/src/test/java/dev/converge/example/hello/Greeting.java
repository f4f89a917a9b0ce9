package dev.converge.example.hello;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A greeting to someone: {@code kubectl apply} one, and a ConfigMap holds its message. */
@Group("hello.converge.dev")
@Version("v1")
public class Greeting extends CustomResource<Greeting.Spec, Void> implements Namespaced {

  /** Whom to greet. */
  public record Spec(String name) {}
}
