package dev.converge.crd.compare;

import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs fabric8's own crd-generator (api-v2) in memory and returns the v1 CRD YAML per CRD name. */
final class Fabric8Crds {

  private Fabric8Crds() {}

  static Map<String, String> generate(Class<? extends HasMetadata> resource) {
    return generate(List.of(resource));
  }

  static Map<String, String> generate(List<Class<? extends HasMetadata>> resources) {
    Map<String, ByteArrayOutputStream> streams = new LinkedHashMap<>();
    CRDGenerator.AbstractCRDOutput<ByteArrayOutputStream> output =
        new CRDGenerator.AbstractCRDOutput<>() {
          @Override
          protected ByteArrayOutputStream createStreamFor(String crdName) {
            return streams.computeIfAbsent(crdName, name -> new ByteArrayOutputStream());
          }
        };
    new CRDGenerator()
        .withOutput(output)
        .forCRDVersions(List.of("v1"))
        .withParallelGenerationEnabled(false)
        .customResourceClasses(resources)
        .generate();
    Map<String, String> yaml = new LinkedHashMap<>();
    streams.forEach((name, stream) -> yaml.put(name, stream.toString(StandardCharsets.UTF_8)));
    return yaml;
  }
}
