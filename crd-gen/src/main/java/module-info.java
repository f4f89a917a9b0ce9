/**
 * CustomResourceDefinitions from annotated Java types: generation, installation, the build step and
 * the schema round-trip check. Only the API packages are exported; {@code
 * dev.converge.crd.internal} and {@code dev.converge.crd.roundtrip.internal} stay readable to this
 * module alone, so that they can change in any release.
 *
 * <p>The generator reads the fields and constructors of the user's resource classes by reflection:
 * an application on the module path opens the packages of its resource classes to this module.
 */
module dev.converge.crd {
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires transitive kubernetes.model.apiextensions;
  requires transitive tools.jackson.databind;
  requires com.fasterxml.classmate;
  requires com.github.victools.jsonschema.generator;
  requires com.github.victools.jsonschema.module.jackson;
  requires com.github.victools.jsonschema.module.jakarta.validation;
  // Needed by fabric8's YAML serializer, which writes the CRDs: fabric8's jars are automatic
  // modules, which cannot declare what they need, so the module that uses them names it.
  requires org.snakeyaml.engine;

  exports dev.converge.crd;
  exports dev.converge.crd.annotation;
  exports dev.converge.crd.build;
  exports dev.converge.crd.roundtrip;
}
