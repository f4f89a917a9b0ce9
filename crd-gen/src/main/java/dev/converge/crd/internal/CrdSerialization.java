package dev.converge.crd.internal;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.YamlDumpSettingsBuilder;
import tools.jackson.databind.json.JsonMapper;

/** The fabric8 serialization used for CRDs: YAML with quotes only where YAML needs them. */
public final class CrdSerialization {

  public static final KubernetesSerialization INSTANCE =
      new KubernetesSerialization(
          JsonMapper.builder().build(),
          true,
          new YamlDumpSettingsBuilder().setMinimizeQuotes(true).build());

  private CrdSerialization() {}
}
