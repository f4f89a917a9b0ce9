package dev.converge.crd;

import dev.converge.crd.build.GenerateCrds;
import dev.converge.crd.internal.CrdSerialization;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The CRDs that the build step put into jars on the class path, under {@value
 * GeneratedCrd#RESOURCE_FOLDER}, so an operator can install its own CRDs at start-up without
 * generating them again.
 */
public final class BundledCrds {

  private BundledCrds() {}

  /**
   * {@return every CRD listed by a {@code META-INF/converge/crds/crds.list} index visible to the
   * loader}
   *
   * @param loader where the indexes and the CRD files are read from (every jar and folder it sees)
   */
  public static List<GeneratedCrd> load(ClassLoader loader) {
    String index = GeneratedCrd.RESOURCE_FOLDER + "/" + GenerateCrds.INDEX_FILE;
    List<GeneratedCrd> crds = new ArrayList<>();
    try {
      for (URL url : Collections.list(loader.getResources(index))) {
        String listing = read(url);
        for (String fileName :
            listing.lines().map(String::strip).filter(line -> !line.isEmpty()).toList()) {
          URL file = new URL(url, fileName);
          String yaml = read(file);
          CustomResourceDefinition definition =
              CrdSerialization.INSTANCE.unmarshal(yaml, CustomResourceDefinition.class);
          crds.add(new GeneratedCrd(definition.getMetadata().getName(), definition, yaml));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bundled CRDs from " + index, e);
    }
    return crds;
  }

  private static String read(URL url) throws IOException {
    try (InputStream in = url.openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
