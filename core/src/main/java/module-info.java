/**
 * The reconcile runtime, the {@code ResourceStrategy} SPI and the process an operator runs in.
 *
 * <p>Operator authors use {@code builder}, {@code reconcile}, {@code operator}, {@code status},
 * {@code owner}, {@code finalizer}, {@code predicate}, {@code handler}, {@code source}, {@code
 * event}, {@code workload}, {@code confighash}, {@code naming}, {@code retry}, {@code rbac} and
 * {@code unittest}; strategy authors also {@code strategy}, {@code strategy.tree} and {@code
 * schema}. The {@code internal} packages are not exported: they change in any release.
 */
module dev.converge.core {
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.apps;
  requires transitive kubernetes.model.rbac;
  requires transitive kubernetes.model.batch;
  requires transitive kubernetes.model.admissionregistration;
  requires transitive kubernetes.model.coordination;
  requires transitive tools.jackson.databind;
  requires transitive micrometer.core;
  requires transitive okhttp3;
  requires io.fabric8.kubernetes.client.okhttp;
  requires tools.jackson.module.blackbird;
  requires micrometer.registry.prometheus;
  requires org.slf4j;
  requires jdk.httpserver;
  requires jdk.management;
  requires static info.picocli;

  exports dev.converge.builder;
  exports dev.converge.client;
  exports dev.converge.confighash;
  exports dev.converge.event;
  exports dev.converge.finalizer;
  exports dev.converge.handler;
  exports dev.converge.metrics;
  exports dev.converge.naming;
  exports dev.converge.operator;
  exports dev.converge.owner;
  exports dev.converge.predicate;
  exports dev.converge.queue;
  exports dev.converge.rbac;
  exports dev.converge.rbac.build;
  exports dev.converge.reconcile;
  exports dev.converge.retry;
  exports dev.converge.schema;
  exports dev.converge.source;
  exports dev.converge.status;
  exports dev.converge.strategy;
  exports dev.converge.strategy.tree;
  exports dev.converge.unittest;
  exports dev.converge.workload;

  // picocli reads and writes the option fields of the command-line mixin
  opens dev.converge.operator to
      info.picocli;

  uses dev.converge.strategy.ResourceStrategy;

  provides dev.converge.strategy.ResourceStrategy with
      dev.converge.strategy.CreateOnlyStrategy;

  uses dev.converge.strategy.ServerFieldPreserver;
}
