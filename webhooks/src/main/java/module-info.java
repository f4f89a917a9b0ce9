/**
 * Admission and conversion webhooks over HTTPS: typed handlers, the server (the JDK's own, module
 * {@code jdk.httpserver}), serving certificates and the manifests that register them. Only the API
 * packages are exported; {@code dev.converge.webhooks.internal} stays readable to this module
 * alone.
 *
 * <p>Handlers receive the user's resource classes, which Jackson builds by reflection: an
 * application on the module path opens the packages of those classes to {@code
 * tools.jackson.databind}.
 */
module dev.converge.webhooks {
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.admissionregistration;
  requires transitive kubernetes.model.apiextensions;
  requires transitive micrometer.core;
  requires jdk.httpserver;
  requires org.bouncycastle.pkix;
  requires org.bouncycastle.provider;
  requires org.slf4j;
  requires tools.jackson.databind;
  requires zjsonpatch;
  // Needed by fabric8's YAML serializer, which writes the manifests: fabric8's jars are automatic
  // modules, which cannot declare what they need, so the module that uses them names it.
  requires org.snakeyaml.engine;

  exports dev.converge.webhooks;
  exports dev.converge.webhooks.build;
}
