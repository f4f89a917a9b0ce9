package dev.converge.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.List;

/**
 * One generated CustomResourceDefinition, as a fabric8 object (to install with a client) and as
 * YAML (to write to a file).
 *
 * @param name the CRD name, {@code <plural>.<group>}
 * @param definition the CRD; callers get their own copy each time they call {@link CrdGenerator}
 * @param yaml the CRD as a YAML document
 * @param warnings what will not work as the Java classes suggest, each naming the class or field
 *     and the fix (the build step prints them, and fails on them with {@code --fail-on-warnings})
 */
public record GeneratedCrd(
    String name, CustomResourceDefinition definition, String yaml, List<String> warnings) {

  /**
   * Copies the warnings.
   *
   * @param name the CRD name, {@code <plural>.<group>}
   * @param definition the CRD; callers get their own copy each time they call {@link CrdGenerator}
   * @param yaml the CRD as a YAML document
   * @param warnings what will not work as the Java classes suggest, each naming the class or field
   *     and the fix (the build step prints them, and fails on them with {@code --fail-on-warnings})
   */
  public GeneratedCrd {
    warnings = List.copyOf(warnings);
  }

  /**
   * A CRD without warnings, for example one read back from a jar.
   *
   * @param name the CRD name, {@code <plural>.<group>}
   * @param definition the CRD
   * @param yaml the CRD as a YAML document
   */
  public GeneratedCrd(String name, CustomResourceDefinition definition, String yaml) {
    this(name, definition, yaml, List.of());
  }

  /** Folder inside a jar (and under {@code target/classes}) where the build step writes CRDs. */
  public static final String RESOURCE_FOLDER = "META-INF/converge/crds";

  /** {@return the file name the build step uses, {@code <plural>.<group>.yaml}} */
  public String fileName() {
    return name + ".yaml";
  }

  /**
   * {@return the class-path resource the build step writes, {@code
   * META-INF/converge/crds/<plural>.<group>.yaml}}
   */
  public String resourcePath() {
    return RESOURCE_FOLDER + "/" + fileName();
  }
}
