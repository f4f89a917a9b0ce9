package dev.converge.webhooks.internal;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * fabric8's serializer with unknown properties ignored: an object written by a newer client (a
 * field added to the CRD before the webhook was updated) must still be admitted and converted, not
 * refused because the Java type lacks the field.
 */
public final class LenientSerialization {

  private LenientSerialization() {}

  public static KubernetesSerialization create() {
    return new KubernetesSerialization(
        JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build(),
        true);
  }
}
